package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/testctx"
)

// snowflake returns a guild id whose shard among count is n%count: the
// shard is taken from the id's timestamp bits (id >> 22).
func snowflake(n int64) string { return strconv.FormatInt(n<<22|12345, 10) }

// shardGuild is a guild with one channel and the members u1 (owner) and u2.
func shardGuild(id, channel string) Guild {
	return Guild{ID: id, Name: "guild " + id, OwnerID: "u1", Channels: []Channel{{ID: channel, Name: "games"}},
		Members: []Member{{UserID: "u1", Username: "alice"}, {UserID: "u2", Username: "bob"}}}
}

// shardSeen records which shard's session received which events.
type shardSeen struct {
	mu     sync.Mutex
	events map[int][]string // shard -> "TYPE guild"
}

func (r *shardSeen) add(shard int, what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events[shard] = append(r.events[shard], what)
}

func (r *shardSeen) of(shard int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events[shard]...)
}

// openShard connects a discordgo session as shard id of count; its
// interactions are answered and recorded with the messages and channel
// events it gets.
func openShard(t *testing.T, srv *Server, id, count int, seen *shardSeen) *discordgo.Session {
	t.Helper()
	dg, err := discordgo.New("Bot test-token")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	dg.LogLevel = discordgo.LogWarning
	dg.ShardID, dg.ShardCount = id, count
	dg.SyncEvents = true // handled in the order received: a last event proves the earlier ones were seen
	dg.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		seen.add(id, "INTERACTION "+i.GuildID)
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "shard " + strconv.Itoa(id)}})
	})
	dg.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { seen.add(id, "MESSAGE "+m.GuildID) })
	dg.AddHandler(func(_ *discordgo.Session, c *discordgo.ChannelCreate) { seen.add(id, "CHANNEL "+c.GuildID) })
	dg.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) { seen.add(id, "GUILD "+g.ID) })
	require.NoError(t, dg.Open())
	t.Cleanup(func() { _ = dg.Close() })
	return dg
}

func TestShardOfFollowsDiscordsFormula(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		guildID string
		count   int
		want    int
	}{
		{"unsharded", snowflake(7), 1, 0},
		{"no count", snowflake(7), 0, 0},
		{"DM belongs to shard 0", "", 4, 0},
		{"(id >> 22) % 2 == 1", snowflake(7), 2, 1},
		{"(id >> 22) % 2 == 0", snowflake(8), 2, 0},
		{"(id >> 22) % 3 == 2", snowflake(8), 3, 2},
		{"a real guild id", "197038439483310086", 5, int((uint64(197038439483310086) >> 22) % 5)},
		{"not a snowflake belongs to shard 0", "g1", 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ShardOf(tc.guildID, tc.count))
		})
	}
}

func TestGatewayBotRecommendsShards(t *testing.T) {
	t.Parallel()
	srv := New(t, WithShards(3))
	dg, err := discordgo.New("Bot test-token")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	gb, err := dg.GatewayBot()
	require.NoError(t, err)
	assert.Equal(t, 3, gb.Shards)
	assert.Equal(t, srv.GatewayURL()+"/", gb.URL, "discordgo adds the slash")

	one := New(t)
	dg.Client = one.HTTPClient()
	gb, err = dg.GatewayBot()
	require.NoError(t, err)
	assert.Equal(t, 1, gb.Shards, "one shard by default")
}

// Two sessions, shards 0 and 1 of 2: each gets in READY and GUILD_CREATE
// only its guilds, and only its guilds' interactions, messages and channel
// events; DMs go to shard 0.
func TestShardedSessionsReceiveOnlyTheirGuilds(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	g0, g1 := snowflake(10), snowflake(11) // shard 0, shard 1 of 2
	require.Equal(t, 0, ShardOf(g0, 2))
	require.Equal(t, 1, ShardOf(g1, 2))
	srv := New(t, WithGuild(shardGuild(g0, "c0")), WithGuild(shardGuild(g1, "c1")))
	seen := &shardSeen{events: map[int][]string{}}
	dg0 := openShard(t, srv, 0, 2, seen)
	dg1 := openShard(t, srv, 1, 2, seen)
	require.True(t, srv.WaitFor(ctx, func() bool { st := srv.GatewayStats(); return st.ReadyShards[0] == 1 && st.ReadyShards[1] == 1 }))
	require.NoError(t, srv.WaitGuildReady(ctx, g1))

	require.True(t, srv.WaitFor(ctx, func() bool { return len(seen.of(0)) >= 1 && len(seen.of(1)) >= 1 }))
	assert.Equal(t, []string{"GUILD " + g0}, seen.of(0), "shard 0's GUILD_CREATEs")
	assert.Equal(t, []string{"GUILD " + g1}, seen.of(1), "shard 1's GUILD_CREATEs")
	assert.Len(t, dg0.State.Guilds, 1)
	assert.Len(t, dg1.State.Guilds, 1)
	assert.Equal(t, g1, dg1.State.Guilds[0].ID)

	for _, tc := range []struct {
		name  string
		guild string
		shard int
	}{
		{"shard 0's guild", g0, 0},
		{"shard 1's guild", g1, 1},
		{"a DM", "", 0},
	} {
		ch := map[string]string{g0: "c0", g1: "c1", "": ""}[tc.guild]
		resp, err := srv.SlashCommand("u2", tc.guild, ch, "ping").WaitResponse(ctx)
		require.NoError(t, err, tc.name)
		assert.Equal(t, "shard "+strconv.Itoa(tc.shard), resp.Content, tc.name)
	}
	_, err := srv.Say("u2", "c1", "hello shard 1")
	require.NoError(t, err)
	_, err = srv.Say("u2", "c0", "hello shard 0")
	require.NoError(t, err)
	require.True(t, srv.AddChannel(g1, Channel{ID: "c1b", Name: "more"}))
	require.NotEmpty(t, srv.DMChannelID("u2"), "the DM command opened it")
	_, err = srv.Say("u2", srv.DMChannelID("u2"), "a DM")
	require.NoError(t, err)

	want0 := []string{"GUILD " + g0, "INTERACTION " + g0, "INTERACTION ", "MESSAGE " + g0, "MESSAGE "}
	want1 := []string{"GUILD " + g1, "INTERACTION " + g1, "MESSAGE " + g1, "CHANNEL " + g1}
	require.True(t, srv.WaitFor(ctx, func() bool { return len(seen.of(0)) >= len(want0) && len(seen.of(1)) >= len(want1) }),
		"shard 0 saw %v, shard 1 saw %v", seen.of(0), seen.of(1))
	// Nothing more arrives: a last message in each shard's guild comes
	// after everything sent before it (a session's events are in order).
	_, err = srv.Say("u2", "c0", "last")
	require.NoError(t, err)
	_, err = srv.Say("u2", "c1", "last")
	require.NoError(t, err)
	require.True(t, srv.WaitFor(ctx, func() bool { return len(seen.of(0)) > len(want0) && len(seen.of(1)) > len(want1) }),
		"shard 0 saw %v, shard 1 saw %v", seen.of(0), seen.of(1))
	assert.ElementsMatch(t, append(want0, "MESSAGE "+g0), seen.of(0))
	assert.ElementsMatch(t, append(want1, "MESSAGE "+g1), seen.of(1))
}

// A click in a guild whose shard is not connected waits for it (the
// dispatch wait), as when its process restarts, instead of going to
// another shard.
func TestInteractionWaitsForTheOwningShard(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	g1 := snowflake(11)
	srv := New(t, WithGuild(shardGuild(g1, "c1")))
	seen := &shardSeen{events: map[int][]string{}}
	openShard(t, srv, 0, 2, seen)
	require.NoError(t, srv.WaitReady(ctx))
	now, cancel := context.WithCancel(ctx)
	cancel() // look, do not wait
	err := srv.WaitGuildReady(now, g1)
	require.ErrorIs(t, err, ErrNoGatewaySession, "shard 1 is not connected")

	// The click is made (and waits) before shard 1 connects.
	clicked := make(chan *Interaction, 1)
	go func() { clicked <- srv.SlashCommand("u2", g1, "c1", "ping") }()
	require.True(t, srv.WaitFor(ctx, func() bool { return len(srv.Interactions()) == 1 }))
	openShard(t, srv, 1, 2, seen)
	resp, err := (<-clicked).WaitResponse(ctx)
	require.NoError(t, err)
	assert.Equal(t, "shard 1", resp.Content)
	assert.NotContains(t, seen.of(0), "INTERACTION "+g1)
}

// IDENTIFY with a shard outside [0, count) is closed with 4010 (Invalid
// shard), as on Discord.
func TestIdentifyWithAnInvalidShardIsClosed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		shard string
	}{
		{"id equal to count", `[2, 2]`},
		{"negative id", `[-1, 2]`},
		{"zero count", `[0, 0]`},
		{"not a pair", `[1]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := New(t)
			ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL(), nil)
			require.NoError(t, err)
			defer ws.Close()
			_, _, err = ws.ReadMessage() // HELLO
			require.NoError(t, err)
			id := `{"op":2,"d":{"token":"Bot t","intents":0,"properties":{},"shard":` + tc.shard + `}}`
			require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(id)))
			_, _, err = ws.ReadMessage()
			var ce *websocket.CloseError
			require.True(t, errors.As(err, &ce), "want a close, got %v", err)
			assert.Equal(t, 4010, ce.Code)
			assert.Zero(t, srv.GatewayStats().Identifies)
		})
	}
}

// An event sent with Dispatch goes to the shard of its guild_id (a
// GUILD_* event's id), and to shard 0 without one.
func TestDispatchRoutesByTheEventsGuild(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	g0, g1 := snowflake(10), snowflake(11)
	srv := New(t, WithGuild(shardGuild(g0, "c0")), WithGuild(shardGuild(g1, "c1")))
	var mu sync.Mutex
	got := map[int][]string{}
	for shard := range 2 {
		dg, err := discordgo.New("Bot test-token")
		require.NoError(t, err)
		dg.Client = srv.HTTPClient()
		dg.LogLevel = discordgo.LogWarning
		dg.ShardID, dg.ShardCount = shard, 2
		dg.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
			if e.Type == "TEST_EVENT" {
				var d struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(e.RawData, &d)
				mu.Lock()
				got[shard] = append(got[shard], d.Name)
				mu.Unlock()
			}
		})
		require.NoError(t, dg.Open())
		t.Cleanup(func() { _ = dg.Close() })
	}
	require.True(t, srv.WaitFor(ctx, func() bool { st := srv.GatewayStats(); return st.ReadyShards[0] == 1 && st.ReadyShards[1] == 1 }))
	require.NoError(t, srv.Dispatch("TEST_EVENT", map[string]any{"name": "to g1", "guild_id": g1}))
	require.NoError(t, srv.Dispatch("TEST_EVENT", map[string]any{"name": "to g0", "guild_id": g0}))
	require.NoError(t, srv.Dispatch("TEST_EVENT", map[string]any{"name": "no guild"}))
	require.True(t, srv.WaitFor(ctx, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got[0]) == 2 && len(got[1]) == 1
	}))
	mu.Lock()
	defer mu.Unlock()
	assert.ElementsMatch(t, []string{"to g0", "no guild"}, got[0], "handlers run concurrently: any order")
	assert.Equal(t, []string{"to g1"}, got[1])
}
