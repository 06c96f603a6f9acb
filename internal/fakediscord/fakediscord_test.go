package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/testctx"
)

func TestOpenReadyAndGuildCreate(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()), WithHeartbeatInterval(200*time.Millisecond))
	var readyMu sync.Mutex
	var ready *discordgo.Ready
	dg := open(t, srv, func(_ *discordgo.Session, r *discordgo.Ready) {
		readyMu.Lock()
		ready = r
		readyMu.Unlock()
	})

	gw, err := dg.Gateway()
	require.NoError(t, err)
	assert.Equal(t, srv.GatewayURL()+"/", gw)

	require.True(t, srv.WaitFor(ctx, func() bool {
		g, err := dg.State.Guild("g1")
		dg.State.RLock()
		defer dg.State.RUnlock()
		return err == nil && len(g.Channels) == 2 && len(g.Members) == 3 && g.Name == "Paris"
	}), "GUILD_CREATE should fill discordgo's state")
	assert.Equal(t, srv.BotUser().ID, dg.State.User.ID)
	readyMu.Lock()
	require.NotNil(t, ready)
	assert.Equal(t, srv.AppID(), ready.Application.ID)
	assert.NotEmpty(t, ready.SessionID)
	readyMu.Unlock()

	me, err := dg.User("@me")
	require.NoError(t, err)
	assert.Equal(t, srv.BotUser().ID, me.ID)
	assert.True(t, me.Bot)

	// Heartbeats are acknowledged (discordgo would reconnect otherwise).
	opened := time.Now()
	require.True(t, srv.WaitFor(ctx, func() bool {
		dg.RLock()
		defer dg.RUnlock()
		return srv.GatewayStats().Heartbeats >= 2 && dg.LastHeartbeatAck.After(opened)
	}))
	st := srv.GatewayStats()
	assert.Equal(t, 1, st.Identifies)
	assert.Equal(t, 1, st.Ready)

	ch, err := dg.Channel("c1")
	require.NoError(t, err)
	assert.Equal(t, "general", ch.Name)
	mem, err := dg.GuildMember("g1", "u2")
	require.NoError(t, err)
	assert.Equal(t, []string{"r1"}, mem.Roles)
	roles, err := dg.GuildRoles("g1")
	require.NoError(t, err)
	assert.Len(t, roles, 2) // @everyone + player
	chans, err := dg.GuildChannels("g1")
	require.NoError(t, err)
	assert.Len(t, chans, 2)
	_, err = dg.GuildMember("g1", "nobody")
	_, code := restCode(t, err)
	assert.Equal(t, 10007, code)

	chunk := make(chan *discordgo.GuildMembersChunk, 1)
	dg.AddHandler(func(_ *discordgo.Session, c *discordgo.GuildMembersChunk) { chunk <- c })
	require.NoError(t, dg.RequestGuildMembers("g1", "", 0, "n1", false))
	select {
	case c := <-chunk:
		assert.Equal(t, "n1", c.Nonce)
		assert.Len(t, c.Members, 3)
	case <-ctx.Done():
		t.Fatal("no GUILD_MEMBERS_CHUNK")
	}
}

func TestSlashCommandDeferredEditWithFileAndEphemeralFollowup(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	board := pngBytes(t, 8, 6)
	seen := make(chan *discordgo.Interaction, 1)
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		seen <- ic.Interaction
		if err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
			return err
		}
		if _, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{
			Content:    ptr("The board"),
			Files:      []*discordgo.File{file("board.png", board)},
			Components: &[]discordgo.MessageComponent{row(button("Play a card", "play"), button("Pass", "pass"))},
		}); err != nil {
			return err
		}
		_, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{
			Content: "Your hand: 3 cards", Flags: discordgo.MessageFlagsEphemeral})
		return err
	})
	open(t, srv, h)

	i := srv.SlashCommand("u2", "g1", "c2", "game",
		SubCmd("start", UserArg("opponent", "u1"), IntArg("rounds", 3)))
	resp, err := i.WaitResponse(ctx)
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, resp.Type)
	assert.Greater(t, resp.Latency, time.Duration(0))
	assert.False(t, i.DispatchedAt().IsZero())

	// What the bot received.
	got := <-seen
	assert.Equal(t, discordgo.InteractionApplicationCommand, got.Type)
	assert.Equal(t, "g1", got.GuildID)
	assert.Equal(t, "c2", got.ChannelID)
	assert.Equal(t, srv.AppID(), got.AppID)
	require.NotNil(t, got.Member)
	assert.Equal(t, "u2", got.Member.User.ID)
	assert.Equal(t, []string{"r1"}, got.Member.Roles)
	assert.NotZero(t, got.Member.Permissions&discordgo.PermissionManageMessages)
	assert.NotZero(t, got.Member.Permissions&discordgo.PermissionSendMessages)
	assert.Nil(t, got.User)
	data := got.ApplicationCommandData()
	assert.Equal(t, "game", data.Name)
	require.Len(t, data.Options, 1)
	sub := data.Options[0]
	assert.Equal(t, "start", sub.Name)
	assert.Equal(t, discordgo.ApplicationCommandOptionSubCommand, sub.Type)
	require.Len(t, sub.Options, 2)
	assert.Equal(t, "u1", sub.Options[0].UserValue(nil).ID)
	assert.Equal(t, int64(3), sub.Options[1].IntValue())
	require.NotNil(t, data.Resolved)
	assert.Equal(t, "alice", data.Resolved.Users["u1"].Username)

	orig, err := i.WaitOriginal(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, "The board", orig.Content)
	assert.False(t, orig.Ephemeral())
	assert.Equal(t, "c2", orig.ChannelID)
	require.Len(t, orig.Attachments, 1)
	att := orig.Attachments[0]
	assert.Equal(t, "board.png", att.Filename)
	assert.Equal(t, "image/png", att.ContentType)
	assert.Equal(t, len(board), att.Size)
	assert.Equal(t, 8, att.Width)
	img, err := att.Image()
	require.NoError(t, err)
	assert.Equal(t, 6, img.Bounds().Dy())
	require.NotNil(t, orig.Button("Play a card"))
	assert.Equal(t, "play", orig.Button("Play a card").CustomID)
	assert.Equal(t, "Pass", orig.Button("pass").Label)
	assert.Len(t, orig.Buttons(), 2)

	// The deferred message was first recorded as loading.
	hist := srv.MessageHistory(orig.ID)
	require.Len(t, hist, 2)
	assert.True(t, hist[0].Loading())
	assert.False(t, hist[1].Loading())
	assert.True(t, hist[1].EditedAt.IsZero(), "filling a deferred response is not an edit")

	f, err := i.WaitFollowup(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, "Your hand: 3 cards", f.Content)
	assert.True(t, f.Ephemeral())
	assert.Equal(t, "u2", f.EphemeralTo)
	assert.Equal(t, []*Message{f}, srv.Ephemerals("u2"))
	assert.Empty(t, srv.Ephemerals("u1"))
	// The channel shows the board only: ephemeral messages are not in it.
	assert.Equal(t, []string{orig.ID}, ids(srv.Messages("c2")))

	// Files keeps the uploaded bytes; the fake serves them too.
	files := srv.Files()
	require.Len(t, files, 1)
	assert.Equal(t, board, files[0].Data)
	res, err := http.Get(files[0].URL)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, board, body)
	assert.Empty(t, i.Errors())
	noErrors(t, errs)
}

func ids(ms []*Message) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestFirstFollowupAfterDeferReplacesThinkingMessage(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		if err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
			return err
		}
		// Asks for ephemeral, but the defer was public: Discord keeps it public.
		if _, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{
			Content: "first", Flags: discordgo.MessageFlagsEphemeral}); err != nil {
			return err
		}
		_, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "second"})
		return err
	})
	open(t, srv, h)
	i := srv.SlashCommand("u1", "g1", "c1", "hello")
	_, err := i.WaitResponse(ctx)
	require.NoError(t, err)
	require.True(t, srv.WaitFor(ctx, func() bool { return len(i.Followups()) == 2 }))
	fs := i.Followups()
	orig := i.Original()
	require.NotNil(t, orig)
	assert.Equal(t, orig.ID, fs[0].ID)
	assert.Equal(t, "first", orig.Content)
	assert.False(t, orig.Ephemeral())
	assert.False(t, orig.Loading())
	assert.Equal(t, "second", fs[1].Content)
	assert.Len(t, i.Messages(), 2)
	assert.Len(t, srv.Messages("c1"), 2)
	noErrors(t, errs)
}

func TestClickUpdatesMessageAndSecondAckIsRejected(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	clicked := make(chan *discordgo.Interaction, 1)
	secondAck := make(chan error, 1)
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		if ic.Type != discordgo.InteractionMessageComponent {
			return nil
		}
		clicked <- ic.Interaction
		err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{
				Content:    "Alice played Barricades",
				Components: []discordgo.MessageComponent{row(button("Again", "again"))},
			}})
		if err != nil {
			return err
		}
		secondAck <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredMessageUpdate})
		return nil
	})
	dg := open(t, srv, h)

	sent, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{
		Content:    "Your turn",
		Components: []discordgo.MessageComponent{row(button("Barricades", "card:barricades"), button("Pass", "pass"))},
	})
	require.NoError(t, err)
	require.Len(t, sent.Components, 1)

	msg := srv.LastMessage("c1")
	require.NotNil(t, msg)
	assert.Equal(t, sent.ID, msg.ID)
	i := srv.ClickLabel("u1", msg, "Barricades")
	resp, err := i.WaitResponse(ctx)
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)

	got := <-clicked
	assert.Equal(t, "card:barricades", got.MessageComponentData().CustomID)
	assert.Equal(t, discordgo.ButtonComponent, got.MessageComponentData().ComponentType)
	require.NotNil(t, got.Message)
	assert.Equal(t, msg.ID, got.Message.ID)
	assert.Equal(t, "Your turn", got.Message.Content)

	cur := srv.Message(msg.ID)
	assert.Equal(t, "Alice played Barricades", cur.Content)
	assert.Equal(t, 1, cur.Version)
	assert.NotNil(t, cur.Button("again"))
	assert.Nil(t, cur.Button("pass"))
	assert.Equal(t, cur, i.Original())
	assert.Len(t, srv.MessageHistory(msg.ID), 2)

	_, code := restCode(t, <-secondAck)
	assert.Equal(t, 40060, code)
	assert.Len(t, i.Errors(), 1)
	assert.Contains(t, i.Errors()[0], "40060")

	// The user clicked on what they saw: the old version still works, the
	// payload carries the current one.
	j := srv.Click("u2", msg, "pass")
	require.NoError(t, j.Err())
	got = <-clicked
	assert.Equal(t, "Alice played Barricades", got.Message.Content)
	_, err = j.WaitResponse(ctx)
	require.NoError(t, err)
	noErrors(t, errs)
}

func TestSimulationMistakesAreReported(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	rec := &recTB{TB: t}
	srv := New(rec, WithGuild(testGuild()), WithDispatchWait(50*time.Millisecond))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	sent, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{
		Content: "x",
		Components: []discordgo.MessageComponent{row(
			discordgo.Button{Label: "Off", CustomID: "off", Style: discordgo.DangerButton, Disabled: true},
			discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.invalid/rules"})},
	})
	require.NoError(t, err)
	msg := srv.Message(sent.ID)

	assert.Error(t, srv.Click("u1", msg, "nope").Err())
	assert.Error(t, srv.Click("u1", msg, "off").Err())
	assert.Error(t, srv.ClickLabel("u1", msg, "Rules").Err())
	assert.Error(t, srv.Click("u1", nil, "off").Err())
	assert.Error(t, srv.SlashCommand("u1", "nope", "c1", "game").Err())
	// No gateway session: nothing can receive the interaction.
	i := srv.SlashCommand("u1", "g1", "c1", "game")
	assert.ErrorIs(t, i.Err(), ErrNoGatewaySession)
	_, err = i.WaitResponse(ctx)
	assert.Error(t, err)
	assert.Len(t, rec.errors(), 6)
	assert.Contains(t, rec.errors()[0], `no button with custom_id "nope"`)
}

func TestChannelMessageEditReplacesAttachments(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	a, b, c := pngBytes(t, 2, 2), pngBytes(t, 3, 3), pngBytes(t, 4, 4)

	sent, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{
		Content: "board v1", Files: []*discordgo.File{file("board.png", a)}})
	require.NoError(t, err)
	require.Len(t, sent.Attachments, 1)
	assert.Equal(t, "board.png", sent.Attachments[0].Filename)
	assert.Equal(t, srv.BotUser().ID, sent.Author.ID)
	assert.Equal(t, "g1", sent.GuildID)
	oldID := sent.Attachments[0].ID

	// attachments: [] + a new file: the old image is replaced, not kept.
	edited, err := dg.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: sent.ID, Channel: "c1", Content: ptr("board v2"),
		Attachments: &[]*discordgo.MessageAttachment{},
		Files:       []*discordgo.File{file("board.png", b)},
	})
	require.NoError(t, err)
	require.Len(t, edited.Attachments, 1)
	assert.NotEqual(t, oldID, edited.Attachments[0].ID)
	assert.NotNil(t, edited.EditedTimestamp)
	m := srv.Message(sent.ID)
	require.Len(t, m.Attachments, 1)
	assert.Equal(t, b, m.Attachments[0].Data)
	assert.Equal(t, "board v2", m.Content)

	// Without "attachments", new files are added to the kept ones.
	_, err = dg.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: sent.ID, Channel: "c1", Files: []*discordgo.File{file("legend.png", c)}})
	require.NoError(t, err)
	m = srv.Message(sent.ID)
	require.Len(t, m.Attachments, 2)
	assert.Equal(t, "board v2", m.Content, "absent fields are kept")
	assert.NotNil(t, m.Attachment("legend.png"))

	// Keeping one attachment by id drops the other.
	keep := m.Attachment("legend.png").ID
	_, err = dg.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: sent.ID, Channel: "c1", Attachments: &[]*discordgo.MessageAttachment{{ID: keep}}})
	require.NoError(t, err)
	m = srv.Message(sent.ID)
	require.Len(t, m.Attachments, 1)
	assert.Equal(t, keep, m.Attachments[0].ID)

	assert.Len(t, srv.MessageHistory(sent.ID), 4)
	assert.Len(t, srv.Files(), 3)
	got, err := dg.ChannelMessage("c1", sent.ID)
	require.NoError(t, err)
	assert.Equal(t, "board v2", got.Content)
	list, err := dg.ChannelMessages("c1", 10, "", "", "")
	require.NoError(t, err)
	assert.Len(t, list, 1)

	require.NoError(t, dg.ChannelMessageDelete("c1", sent.ID))
	assert.True(t, srv.Message(sent.ID).Deleted)
	assert.Empty(t, srv.Messages("c1"))
	_, err = dg.ChannelMessage("c1", sent.ID)
	_, code := restCode(t, err)
	assert.Equal(t, 10008, code)
}

func TestDMsAndClosedDMs(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()

	ch, err := dg.UserChannelCreate("u1")
	require.NoError(t, err)
	assert.Equal(t, discordgo.ChannelTypeDM, ch.Type)
	require.Len(t, ch.Recipients, 1)
	assert.Equal(t, "u1", ch.Recipients[0].ID)
	again, err := dg.UserChannelCreate("u1")
	require.NoError(t, err)
	assert.Equal(t, ch.ID, again.ID, "one stable DM channel per user")
	assert.Equal(t, ch.ID, srv.DMChannelID("u1"))

	_, err = dg.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{
		Content: "Your hand", Files: []*discordgo.File{file("hand.png", pngBytes(t, 2, 2))}})
	require.NoError(t, err)
	dms := srv.DMs("u1")
	require.Len(t, dms, 1)
	assert.Equal(t, "Your hand", dms[0].Content)
	assert.Empty(t, dms[0].GuildID)

	srv.CloseDMs("u2")
	ch2, err := dg.UserChannelCreate("u2")
	require.NoError(t, err, "opening the DM channel works, as on Discord")
	_, err = dg.ChannelMessageSend(ch2.ID, "hello")
	require.Error(t, err)
	var re *discordgo.RESTError
	require.ErrorAs(t, err, &re)
	require.NotNil(t, re.Message)
	assert.Equal(t, 50007, re.Message.Code)
	assert.Equal(t, http.StatusForbidden, re.Response.StatusCode)
	assert.Empty(t, srv.DMs("u2"))

	srv.OpenDMs("u2")
	_, err = dg.ChannelMessageSend(ch2.ID, "hello")
	require.NoError(t, err)

	_, err = dg.UserChannelCreate("stranger")
	_, code := restCode(t, err)
	assert.Equal(t, 10013, code)
}

func TestRateLimitedTwiceThenSucceedsOnce(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	var rlMu sync.Mutex
	rlEvents := 0
	dg.AddHandler(func(_ *discordgo.Session, _ *discordgo.RateLimit) { rlMu.Lock(); rlEvents++; rlMu.Unlock() })

	f := srv.RateLimit(Route("POST /channels/*/messages"), 2, 30*time.Millisecond)
	start := time.Now()
	m, err := dg.ChannelMessageSend("c1", "after the storm")
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 60*time.Millisecond, "discordgo slept retry_after twice")
	assert.Equal(t, 2, f.Hits())
	assert.Equal(t, 2, srv.RateLimited())
	msgs := srv.Messages("c1")
	require.Len(t, msgs, 1, "no duplicated message")
	assert.Equal(t, m.ID, msgs[0].ID)

	var posts []Request
	for _, r := range srv.Requests() {
		if r.Route == "POST /channels/{}/messages" {
			posts = append(posts, r)
		}
	}
	require.Len(t, posts, 3)
	assert.Equal(t, []int{429, 429, 200}, []int{posts[0].Status, posts[1].Status, posts[2].Status})
	assert.True(t, posts[0].Injected)
	rlMu.Lock()
	assert.Equal(t, 2, rlEvents)
	rlMu.Unlock()

	// A request not matching the route is not affected.
	srv.RateLimit(Route("PATCH /channels/*/messages/*"), 1, time.Millisecond)
	_, err = dg.ChannelMessageSend("c2", "x")
	require.NoError(t, err)
	assert.Equal(t, 2, srv.RateLimited())
}

func TestFailNext(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()

	srv.FailNext(Route("POST /channels/c1/messages"), 500, `{"message":"boom","code":0}`)
	_, err = dg.ChannelMessageSend("c1", "x")
	status, _ := restCode(t, err)
	assert.Equal(t, 500, status)
	_, err = dg.ChannelMessageSend("c1", "x")
	require.NoError(t, err)

	// Predicates can look at the payload.
	f := srv.Fail(func(r *Request) bool { return bytes.Contains(r.Payload, []byte("secret")) }, 0, 403, "")
	_, err = dg.ChannelMessageSend("c1", "the secret plan")
	status, code := restCode(t, err)
	assert.Equal(t, 403, status)
	assert.Equal(t, 0, code)
	_, err = dg.ChannelMessageSend("c1", "the secret plan")
	require.Error(t, err)
	f.Cancel()
	_, err = dg.ChannelMessageSend("c1", "the secret plan")
	require.NoError(t, err)
	assert.Equal(t, 2, f.Hits())
	assert.Len(t, srv.Messages("c1"), 2)
}

func TestApplicationCommands(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	rec := &recTB{TB: t}
	srv := New(rec, WithGuild(testGuild()))
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"}})
	})
	dg := open(t, srv, h)

	cmds := []*discordgo.ApplicationCommand{
		{Name: "game", Description: "Play Red Flag Over Paris", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "start", Description: "Start a game", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who to play", Required: true},
				{Type: discordgo.ApplicationCommandOptionString, Name: "side", Description: "Your side", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "Commune", Value: "commune"}, {Name: "Versailles", Value: "versailles"}}},
			}},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "resign", Description: "Give up"},
		}},
		{Name: "rules", Description: "Show the rules"},
	}
	created, err := dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", cmds)
	require.NoError(t, err)
	require.Len(t, created, 2)
	for _, c := range created {
		assert.NotEmpty(t, c.ID)
		assert.Equal(t, srv.AppID(), c.ApplicationID)
		assert.Equal(t, discordgo.ChatApplicationCommand, c.Type)
	}
	again, err := dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", cmds[:1])
	require.NoError(t, err)
	require.Len(t, again, 1)
	assert.Equal(t, created[0].ID, again[0].ID, "overwriting keeps the id of a same-named command")
	assert.Len(t, srv.Commands(""), 1)

	gcmd, err := dg.ApplicationCommandCreate(srv.AppID(), "g1", &discordgo.ApplicationCommand{Name: "admin", Description: "Admin tools"})
	require.NoError(t, err)
	assert.Equal(t, "g1", gcmd.GuildID)
	list, err := dg.ApplicationCommands(srv.AppID(), "g1")
	require.NoError(t, err)
	assert.Len(t, list, 1)
	require.NoError(t, dg.ApplicationCommandDelete(srv.AppID(), "g1", gcmd.ID))
	assert.Empty(t, srv.Commands("g1"))

	_, err = dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{{Name: "Game", Description: "x"}})
	_, code := restCode(t, err)
	assert.Equal(t, 50035, code, "upper-case names are refused")
	_, err = dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{{Name: "x"}})
	_, code = restCode(t, err)
	assert.Equal(t, 50035, code, "a description is required")

	// Simulated commands use the registered id and are checked against it.
	i := srv.SlashCommand("u1", "g1", "c1", "game", SubCmd("start", UserArg("opponent", "u2"), StrArg("side", "commune")))
	_, err = i.WaitResponse(ctx)
	require.NoError(t, err)
	var payload struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(i.Payload, &payload))
	assert.Equal(t, created[0].ID, payload.Data.ID)

	require.Empty(t, rec.errors())
	assert.Error(t, srv.SlashCommand("u1", "g1", "c1", "game", SubCmd("start", StrArg("side", "commune"))).Err(), "missing required")
	assert.Error(t, srv.SlashCommand("u1", "g1", "c1", "game", SubCmd("start", UserArg("opponent", "u2"), StrArg("side", "prussia"))).Err(), "not a choice")
	assert.Error(t, srv.SlashCommand("u1", "g1", "c1", "game", SubCmd("stop")).Err(), "no such subcommand")
	assert.Error(t, srv.SlashCommand("u1", "g1", "c1", "game").Err(), "subcommand required")
	assert.Len(t, rec.errors(), 4)
	noErrors(t, errs)
}

func TestUnknownRoute(t *testing.T) {
	t.Parallel()
	srv := New(t, AllowUnknownRoutes())
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	_, err = dg.ChannelMessagesPinned("c1")
	status, code := restCode(t, err)
	assert.Equal(t, 404, status)
	assert.Equal(t, 0, code)
	var re *discordgo.RESTError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "fake discord: unknown route GET /api/v9/channels/c1/pins", re.Message.Message)
	assert.Equal(t, []string{"GET /api/v9/channels/c1/pins"}, srv.Unknown())

	// Without AllowUnknownRoutes the test fails at cleanup.
	rec := &recTB{TB: t}
	strict := New(rec)
	res, err := strict.HTTPClient().Get("https://discord.com/api/v9/voice/regions")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 404, res.StatusCode)
	strict.Close()
	require.Len(t, rec.errors(), 1)
	assert.Contains(t, rec.errors()[0], "GET /api/v9/voice/regions")
}

func TestDeleteChannel(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	deleted := make(chan string, 1)
	dg := open(t, srv, func(_ *discordgo.Session, c *discordgo.ChannelDelete) { deleted <- c.ID })
	require.True(t, srv.WaitFor(ctx, func() bool { _, err := dg.State.Channel("c2"); return err == nil }))

	require.True(t, srv.DeleteChannel("c2"))
	select {
	case id := <-deleted:
		assert.Equal(t, "c2", id)
	case <-ctx.Done():
		t.Fatal("no CHANNEL_DELETE")
	}
	_, err := dg.ChannelMessageSend("c2", "anyone?")
	_, code := restCode(t, err)
	assert.Equal(t, 10003, code)
	_, err = dg.Channel("c2")
	_, code = restCode(t, err)
	assert.Equal(t, 10003, code)
}

func TestAutocompleteModalAndEphemeral(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	rec := &recTB{TB: t}
	srv := New(rec, WithGuild(testGuild()))
	submitted := make(chan map[string]string, 1)
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		switch ic.Type {
		case discordgo.InteractionApplicationCommandAutocomplete:
			typed := ic.ApplicationCommandData().Options[0].StringValue()
			return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionApplicationCommandAutocompleteResult,
				Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "Communards " + typed, Value: "communards"}}}})
		case discordgo.InteractionApplicationCommand:
			return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseModal,
				Data: &discordgo.InteractionResponseData{CustomID: "note", Title: "Leave a note",
					Components: []discordgo.MessageComponent{row(discordgo.TextInput{
						CustomID: "text", Label: "Note", Style: discordgo.TextInputShort, Required: true})}}})
		case discordgo.InteractionModalSubmit:
			d := ic.ModalSubmitData()
			vals := map[string]string{}
			for _, r := range d.Components {
				for _, c := range r.(*discordgo.ActionsRow).Components {
					ti := c.(*discordgo.TextInput)
					vals[ti.CustomID] = ti.Value
				}
			}
			submitted <- vals
			return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "Noted", Flags: discordgo.MessageFlagsEphemeral}})
		}
		return nil
	})
	open(t, srv, h)

	ac := srv.Autocomplete("u1", "g1", "c1", "card", StrArg("name", "comm").Focus())
	r, err := ac.WaitResponse(ctx)
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionApplicationCommandAutocompleteResult, r.Type)
	require.Len(t, r.Choices, 1)
	assert.Equal(t, "Communards comm", r.Choices[0].Name)

	cmd := srv.SlashCommand("u1", "g1", "c1", "note")
	r, err = cmd.WaitResponse(ctx)
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseModal, r.Type)
	assert.Equal(t, "note", r.CustomID)
	assert.Equal(t, "Leave a note", r.Title)

	sub := srv.SubmitModal(cmd, map[string]string{"text": "Vive la Commune"})
	r, err = sub.WaitResponse(ctx)
	require.NoError(t, err)
	assert.True(t, r.Ephemeral())
	assert.Equal(t, map[string]string{"text": "Vive la Commune"}, <-submitted)
	require.NotNil(t, r.Message)
	assert.Equal(t, "u1", r.Message.EphemeralTo)
	assert.Len(t, srv.Ephemerals("u1"), 1)
	assert.Empty(t, srv.Messages("c1"))

	require.Empty(t, rec.errors())
	assert.Error(t, srv.SubmitModal(cmd, map[string]string{}).Err(), "required input missing")
	assert.Error(t, srv.SubmitModal(ac, nil).Err(), "not a modal")
	assert.Len(t, rec.errors(), 2)
	noErrors(t, errs)
}

func TestSelectMenu(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	values := make(chan []string, 1)
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		values <- ic.MessageComponentData().Values
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	})
	dg := open(t, srv, h)
	minV := 1
	_, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{
		Content: "Pick cards",
		Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{
			CustomID: "cards", MinValues: &minV, MaxValues: 2, Options: []discordgo.SelectMenuOption{
				{Label: "Barricades", Value: "b"}, {Label: "Thiers", Value: "t"}, {Label: "Louise Michel", Value: "l"}}})},
	})
	require.NoError(t, err)
	msg := srv.LastMessage("c1")
	require.Len(t, msg.SelectMenus(), 1)
	i := srv.Select("u2", msg, "cards", "b", "l")
	r, err := i.WaitResponse(ctx)
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, r.Type)
	assert.Equal(t, []string{"b", "l"}, <-values)
	assert.Equal(t, msg.ID, i.Original().ID)
	noErrors(t, errs)
}

func TestDMInteraction(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithUser(User{ID: "u9", Username: "louise"}))
	got := make(chan *discordgo.Interaction, 1)
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		got <- ic.Interaction
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "Your games: none"}})
	})
	open(t, srv, h)
	i := srv.SlashCommand("u9", "", "", "games")
	_, err := i.WaitResponse(ctx)
	require.NoError(t, err)
	ic := <-got
	assert.Nil(t, ic.Member)
	require.NotNil(t, ic.User)
	assert.Equal(t, "louise", ic.User.Username)
	assert.Empty(t, ic.GuildID)
	assert.Equal(t, srv.DMChannelID("u9"), ic.ChannelID)
	require.Len(t, srv.DMs("u9"), 1)
	assert.Equal(t, "Your games: none", srv.DMs("u9")[0].Content)
	noErrors(t, errs)
}

func TestMessageValidation(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()

	send := func(m *discordgo.MessageSend) int {
		t.Helper()
		_, err := dg.ChannelMessageSendComplex("c1", m)
		if err == nil {
			return 0
		}
		_, code := restCode(t, err)
		return code
	}
	assert.Equal(t, 50006, send(&discordgo.MessageSend{}), "empty")
	assert.Equal(t, 50035, send(&discordgo.MessageSend{Content: strings.Repeat("x", 2001)}))
	var rows []discordgo.MessageComponent
	for i := range 6 {
		rows = append(rows, row(button("b", fmt.Sprint("id", i))))
	}
	assert.Equal(t, 50035, send(&discordgo.MessageSend{Content: "x", Components: rows}), "six rows")
	assert.Equal(t, 50035, send(&discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{
		row(button("a", "same"), button("b", "same"))}}), "duplicate custom ids")
	var six []discordgo.MessageComponent
	for i := range 6 {
		six = append(six, button("b", fmt.Sprint("id", i)))
	}
	assert.Equal(t, 50035, send(&discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(six...)}}), "six buttons")
	assert.Equal(t, 50035, send(&discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{button("a", "a")}}), "button outside a row")
	assert.Equal(t, 0, send(&discordgo.MessageSend{Content: strings.Repeat("é", 2000)}), "2000 characters are fine")
	assert.Len(t, srv.Messages("c1"), 1)
}

func TestInteractionDeadline(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()), WithInteractionDeadline(time.Nanosecond))
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	})
	open(t, srv, h)
	i := srv.SlashCommand("u1", "g1", "c1", "slow")
	var err error
	select {
	case err = <-errs:
	case <-ctx.Done():
		t.Fatal("no callback")
	}
	_, code := restCode(t, err)
	assert.Equal(t, 10062, code)
	assert.Nil(t, i.Response())
	assert.Len(t, i.Errors(), 1)
}

func TestGatewayResumeAndReidentify(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "pong"}})
	})
	open(t, srv, h)
	// discordgo starts its heartbeat goroutine after Open returns; dropping
	// the connection before its first heartbeat makes discordgo reconnect
	// twice (its own race), so wait for it.
	heartbeats := func(n int) func() bool {
		return func() bool { return srv.GatewayStats().Heartbeats >= n }
	}
	require.True(t, srv.WaitFor(ctx, heartbeats(1)))

	srv.DisconnectAll()
	require.True(t, srv.WaitFor(ctx, func() bool {
		st := srv.GatewayStats()
		return st.Resumes >= 1 && st.Ready == 1
	}), "discordgo should RESUME: %+v", srv.GatewayStats())
	_, err := srv.SlashCommand("u1", "g1", "c1", "ping").WaitResponse(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, srv.GatewayStats().Identifies)
	require.True(t, srv.WaitFor(ctx, heartbeats(2)))

	srv.InvalidateSessions()
	require.True(t, srv.WaitFor(ctx, func() bool {
		st := srv.GatewayStats()
		return st.Identifies >= 2 && st.Ready == 1
	}), "discordgo should IDENTIFY again: %+v", srv.GatewayStats())
	_, err = srv.SlashCommand("u1", "g1", "c1", "ping").WaitResponse(ctx)
	require.NoError(t, err)
	require.True(t, srv.WaitFor(ctx, func() bool { return srv.GatewayStats().Connections == 1 }))
	noErrors(t, errs)
}

func TestConcurrentGames(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	const games = 200
	g := testGuild()
	for n := range games {
		g.Channels = append(g.Channels, Channel{ID: fmt.Sprint("game", n)})
	}
	srv := New(t, WithGuild(g))
	board := pngBytes(t, 16, 16)
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		if err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
			return err
		}
		_, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{
			Content:    ptr("board of " + ic.ChannelID),
			Files:      []*discordgo.File{file("board.png", board)},
			Components: &[]discordgo.MessageComponent{row(button("Play", "play:"+ic.ChannelID))},
		})
		return err
	})
	open(t, srv, h)

	var wg sync.WaitGroup
	handles := make([]*Interaction, games)
	for n := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			handles[n] = srv.SlashCommand("u1", "g1", fmt.Sprint("game", n), "start")
		}()
	}
	wg.Wait()
	for n, i := range handles {
		m, err := i.WaitOriginal(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprint("board of game", n), m.Content)
		assert.NotNil(t, m.Button("Play"))
	}
	lat := srv.ResponseLatencies()
	assert.Len(t, lat, games)
	for _, l := range lat {
		assert.Greater(t, l, time.Duration(0))
	}
	assert.Len(t, srv.Files(), games)
	buf := srv.Files()[0].Data
	_, err := png.Decode(bytes.NewReader(buf))
	require.NoError(t, err)
	noErrors(t, errs)
}

func TestRouteMatcher(t *testing.T) {
	t.Parallel()
	r := func(m, p string) *Request { return &Request{Method: m, Path: p} }
	assert.True(t, Route("POST /channels/*/messages")(r("POST", "/channels/1/messages")))
	assert.False(t, Route("POST /channels/*/messages")(r("PATCH", "/channels/1/messages")))
	assert.False(t, Route("POST /channels/*/messages")(r("POST", "/channels/1/messages/2")))
	assert.True(t, Route("/channels/{id}/messages/{mid}")(r("DELETE", "/channels/1/messages/2")))
	assert.True(t, Route("* /webhooks/**")(r("PATCH", "/webhooks/a/b/messages/@original")))
	assert.True(t, Route("/interactions/**")(r("POST", "/interactions/1/t/callback")))
	assert.False(t, Route("/interactions/**")(r("POST", "/webhooks/1/t")))
}

func TestSayAndDispatch(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	got := make(chan *discordgo.MessageCreate, 1)
	typing := make(chan *discordgo.TypingStart, 1)
	open(t, srv,
		func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m },
		func(_ *discordgo.Session, ts *discordgo.TypingStart) { typing <- ts })
	m, err := srv.Say("u2", "c1", "!help")
	require.NoError(t, err)
	mc := <-got
	assert.Equal(t, m.ID, mc.ID)
	assert.Equal(t, "!help", mc.Content)
	assert.Equal(t, "u2", mc.Author.ID)
	require.NotNil(t, mc.Member)
	assert.Equal(t, []string{"r1"}, mc.Member.Roles)

	require.NoError(t, srv.Dispatch("TYPING_START", map[string]any{"channel_id": "c1", "user_id": "u1", "timestamp": 1}))
	assert.Equal(t, "u1", (<-typing).UserID)
}

func TestWithToken(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()), WithToken("s3cret"))
	bad, err := discordgo.New("Bot wrong")
	require.NoError(t, err)
	bad.Client = srv.HTTPClient()
	bad.LogLevel = -1
	bad.ShouldReconnectOnError = false
	_, err = bad.User("@me")
	status, _ := restCode(t, err)
	assert.Equal(t, 401, status)
	bad.Identify.Token = "Bot wrong"
	require.Error(t, bad.Open(), "IDENTIFY with a wrong token is closed with 4004")

	good, err := discordgo.New("Bot s3cret")
	require.NoError(t, err)
	good.Client = srv.HTTPClient()
	require.NoError(t, good.Open())
	t.Cleanup(func() { _ = good.Close() })
	require.NoError(t, srv.WaitReady(ctx))
	_, err = good.User("@me")
	require.NoError(t, err)
}

func TestInteractionWebhookRoutes(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	type result struct {
		original, followup *discordgo.Message
		err                error
	}
	results := make(chan result, 1)
	img := pngBytes(t, 5, 5)
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		var r result
		defer func() { results <- r }()
		// Type 4 with a file: a multipart callback.
		if r.err = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "card", Files: []*discordgo.File{file("card.png", img)},
				Embeds: []*discordgo.MessageEmbed{{Title: "The Commune", Image: &discordgo.MessageEmbedImage{URL: "attachment://card.png"}}}},
		}); r.err != nil {
			return
		}
		if r.original, r.err = s.InteractionResponse(ic.Interaction); r.err != nil {
			return
		}
		var f *discordgo.Message
		if f, r.err = s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "f1"}); r.err != nil {
			return
		}
		if r.followup, r.err = s.FollowupMessageEdit(ic.Interaction, f.ID, &discordgo.WebhookEdit{Content: ptr("f1 edited")}); r.err != nil {
			return
		}
		if _, r.err = s.FollowupMessageCreate(ic.Interaction, false, &discordgo.WebhookParams{Content: "f2"}); r.err != nil {
			return
		}
		if r.err = s.FollowupMessageDelete(ic.Interaction, f.ID); r.err != nil {
			return
		}
		r.err = s.InteractionResponseDelete(ic.Interaction)
	})
	i := srv.SlashCommand("u1", "g1", "c1", "card")
	resp, err := i.WaitResponse(ctx)
	require.NoError(t, err)
	require.Len(t, resp.Attachments, 1)
	assert.Equal(t, img, resp.Attachments[0].Data)
	require.Len(t, resp.Embeds, 1)
	assert.Equal(t, "The Commune", resp.Embeds[0].Title)

	r := <-results
	require.NoError(t, r.err)
	assert.Equal(t, "card", r.original.Content)
	require.Len(t, r.original.Attachments, 1)
	assert.Equal(t, "card.png", r.original.Attachments[0].Filename)
	require.NotNil(t, r.original.Interaction)
	assert.Equal(t, "card", r.original.Interaction.Name)
	assert.Equal(t, "f1 edited", r.followup.Content)

	assert.Nil(t, i.Original(), "deleted")
	fs := i.Followups()
	require.Len(t, fs, 1)
	assert.Equal(t, "f2", fs[0].Content)
	assert.Equal(t, []string{"f2"}, contents(srv.Messages("c1")))
	var kinds []MessageEventKind
	for _, ev := range srv.MessageEvents() {
		kinds = append(kinds, ev.Kind)
	}
	assert.Equal(t, []MessageEventKind{MessageCreated, MessageCreated, MessageEdited, MessageCreated, MessageDeleted, MessageDeleted}, kinds)
}

func contents(ms []*Message) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Content)
	}
	return out
}

func TestMessageEvents(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()), WithMessageEvents())
	created := make(chan *discordgo.MessageCreate, 1)
	deleted := make(chan *discordgo.MessageDelete, 1)
	dg := open(t, srv,
		func(_ *discordgo.Session, m *discordgo.MessageCreate) { created <- m },
		func(_ *discordgo.Session, m *discordgo.MessageDelete) { deleted <- m })
	m, err := dg.ChannelMessageSend("c1", "hi")
	require.NoError(t, err)
	mc := <-created
	assert.Equal(t, m.ID, mc.ID)
	assert.Equal(t, srv.BotUser().ID, mc.Author.ID)
	require.NoError(t, dg.ChannelMessageDelete("c1", m.ID))
	assert.Equal(t, m.ID, (<-deleted).ID)
}

// A new message notifies the mentioned users its allowed_mentions permit
// (all without allowed_mentions); an edit notifies nobody.
func TestNotifiedFollowsAllowedMentions(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()

	plain, err := dg.ChannelMessageSend("c1", "<@u1> and <@!u2>, <@u1>")
	require.NoError(t, err)
	assert.Equal(t, []string{"u1", "u2"}, srv.Message(plain.ID).Notified, "no allowed_mentions: every user mention")

	some, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{Content: "<@u1> and <@u2>",
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{"u2"}}})
	require.NoError(t, err)
	assert.Equal(t, []string{"u2"}, srv.Message(some.ID).Notified)

	none, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{Content: "<@u1>",
		AllowedMentions: &discordgo.MessageAllowedMentions{}})
	require.NoError(t, err)
	assert.Empty(t, srv.Message(none.ID).Notified)

	_, err = dg.ChannelMessageEdit("c1", none.ID, "<@u2> again")
	require.NoError(t, err)
	assert.Empty(t, srv.Message(none.ID).Notified, "an edit pings nobody")
}

// Edited is @original as the interaction's own token edited it: after a
// deferred update, the bot's answer on the clicked message, not an edit
// of the same message by anyone else.
func TestEditedIsTheInteractionsOwnEdit(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	srv := New(t, WithGuild(testGuild()))
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	})
	dg := open(t, srv, h)
	sent, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{
		Content: "Your turn", Components: []discordgo.MessageComponent{row(button("Pass", "pass"))}})
	require.NoError(t, err)
	i := srv.Click("u1", srv.Message(sent.ID), "pass")
	_, err = i.WaitResponse(ctx)
	require.NoError(t, err)

	other := "Edited by the channel API"
	_, err = dg.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: sent.ID, Channel: "c1", Content: &other})
	require.NoError(t, err)
	assert.Nil(t, i.Edited(), "another writer's edit is not the interaction's answer")
	assert.Equal(t, other, i.Original().Content)

	answer := "Passed"
	_, err = dg.InteractionResponseEdit(&discordgo.Interaction{AppID: srv.AppID(), Token: i.Token}, &discordgo.WebhookEdit{Content: &answer})
	require.NoError(t, err)
	require.NotNil(t, i.Edited())
	assert.Equal(t, answer, i.Edited().Content)
	assert.Equal(t, 2, i.Edited().Version)
	noErrors(t, errs)
}

// WithChannelRateLimits: a channel's message creates (and, apart, its
// edits) are limited per window with Discord's headers, which discordgo
// obeys: past the limit it waits for the window instead of being refused;
// another channel is not held back; a raw request past the limit is
// refused with 429.
func TestChannelRateLimitsPaceDiscordgo(t *testing.T) {
	t.Parallel()
	const window = 2 * time.Second
	srv := New(t, WithGuild(testGuild()), WithChannelRateLimits(2, window))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	start := time.Now()
	var last *discordgo.Message
	for k := range 3 {
		last, err = dg.ChannelMessageSend("c1", fmt.Sprint("message ", k))
		require.NoError(t, err)
	}
	assert.GreaterOrEqual(t, time.Since(start), window-50*time.Millisecond, "the third create waited for the next window")
	assert.Zero(t, srv.RateLimited(), "discordgo waited by the headers: nothing refused")
	_, err = dg.ChannelMessageEdit("c1", last.ID, "edited")
	require.NoError(t, err, "edits have their own bucket")
	_, err = dg.ChannelMessageSend("c2", "elsewhere")
	require.NoError(t, err)

	var creates []Request
	for _, r := range srv.Requests() {
		if r.Route == "POST /channels/{}/messages" && r.Path == "/channels/c1/messages" {
			creates = append(creates, r)
		}
	}
	require.Len(t, creates, 3)

	// A client that ignores the headers is refused.
	for k := range 3 {
		req, err := http.NewRequest(http.MethodPost, srv.URL()+"/api/v10/channels/c2/messages", strings.NewReader(`{"content":"raw"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bot x")
		resp, err := srv.HTTPClient().Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		if k < 1 {
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.NotEmpty(t, resp.Header.Get("X-RateLimit-Remaining"))
		} else {
			assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "request %d past the limit", k)
		}
	}
	assert.Equal(t, 2, srv.RateLimited())
}
