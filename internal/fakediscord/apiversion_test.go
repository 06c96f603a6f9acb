package fakediscord

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// This package's sessions keep discordgo's default version (v9); the v10
// requests below name their URL whole.
const v10 = "https://discord.com/api/v10/"

// patchV10 edits a channel message through API v10, as multipart when
// files are given.
func patchV10(t *testing.T, dg *discordgo.Session, channel, id string, body any, files ...*discordgo.File) error {
	t.Helper()
	uri := v10 + "channels/" + channel + "/messages/" + id
	if len(files) == 0 {
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		_, err = dg.RequestRaw("PATCH", uri, "application/json", raw, "", 0)
		return err
	}
	ct, raw, err := discordgo.MultipartBodyWithJSON(body, files)
	require.NoError(t, err)
	_, err = dg.RequestRaw("PATCH", uri, ct, raw, "", 0)
	return err
}

// API v10: an edit that uploads files lists every attachment the message
// keeps, new files by the index of their files[n] part; v9 clients keep
// the older rule (the list names what to keep, files are added).
func TestAPIv10EditListsItsUploads(t *testing.T) {
	t.Parallel()
	srv := New(t, WithGuild(testGuild()))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	a, b, c := pngBytes(t, 2, 2), pngBytes(t, 3, 3), pngBytes(t, 4, 4)
	sent, err := dg.ChannelMessageSendComplex("c1", &discordgo.MessageSend{Content: "v1", Files: []*discordgo.File{file("board.png", a)}})
	require.NoError(t, err)
	old := sent.Attachments[0].ID

	refused := func(body any) {
		t.Helper()
		err := patchV10(t, dg, "c1", sent.ID, body, file("board.png", b))
		status, code := restCode(t, err)
		assert.Equal(t, 400, status)
		assert.Equal(t, 50035, code)
		assert.Equal(t, old, srv.Message(sent.ID).Attachments[0].ID, "a refused edit changes nothing")
	}
	refused(map[string]any{"content": "v2"})                                 // no list
	refused(map[string]any{"content": "v2", "attachments": []any{}})         // the upload left out
	refused(map[string]any{"attachments": []any{map[string]any{"id": "7"}}}) // no such upload
	refused(map[string]any{"attachments": []any{map[string]any{"id": old}}}) // the upload left out, the old one kept

	// The upload listed as id 0: it replaces the old picture.
	require.NoError(t, patchV10(t, dg, "c1", sent.ID, map[string]any{"content": "v2",
		"attachments": []any{map[string]any{"id": "0", "filename": "board.png"}}}, file("board.png", b)))
	m := srv.Message(sent.ID)
	require.Len(t, m.Attachments, 1)
	assert.NotEqual(t, old, m.Attachments[0].ID)
	assert.Equal(t, b, m.Attachments[0].Data)

	// Kept by id, and a new one by its index (a number is a valid id too).
	keep := m.Attachments[0].ID
	require.NoError(t, patchV10(t, dg, "c1", sent.ID, map[string]any{
		"attachments": []any{map[string]any{"id": keep}, map[string]any{"id": 0, "filename": "legend.png"}}}, file("legend.png", c)))
	m = srv.Message(sent.ID)
	require.Len(t, m.Attachments, 2)
	assert.Equal(t, keep, m.Attachments[0].ID)
	assert.NotNil(t, m.Attachment("legend.png"))

	// Without files, the list only says what to keep.
	require.NoError(t, patchV10(t, dg, "c1", sent.ID, map[string]any{"attachments": []any{map[string]any{"id": keep}}}))
	require.Len(t, srv.Message(sent.ID).Attachments, 1)

	// v9: files are added whatever the list says.
	_, err = dg.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: sent.ID, Channel: "c1",
		Attachments: &[]*discordgo.MessageAttachment{}, Files: []*discordgo.File{file("board.png", a)}})
	require.NoError(t, err)
	m = srv.Message(sent.ID)
	require.Len(t, m.Attachments, 1)
	assert.Equal(t, a, m.Attachments[0].Data)
}

// WithAPIVersion serves one version: other REST versions are refused with
// 50041 and fail the test at cleanup; the gateway is closed with 4012.
func TestWithAPIVersionRefusesOtherVersions(t *testing.T) {
	t.Parallel()
	rec := &recTB{TB: t}
	srv := New(rec, WithGuild(testGuild()), WithAPIVersion(10))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	dg.LogLevel = discordgo.LogError

	_, err = dg.Channel("c1") // discordgo's default: v9
	status, code := restCode(t, err)
	assert.Equal(t, 400, status)
	assert.Equal(t, discordgo.ErrCodeInvalidAPIVersionProvided, code)

	raw, err := dg.RequestRaw("GET", v10+"channels/c1", "", nil, "", 0)
	require.NoError(t, err, "v10 is served")
	var ch discordgo.Channel
	require.NoError(t, json.Unmarshal(raw, &ch))
	assert.Equal(t, "general", ch.Name)

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, 9, reqs[0].APIVersion)
	assert.Equal(t, 10, reqs[1].APIVersion)
	assert.Empty(t, srv.Unknown(), "a refused version is not an unknown route")

	// The gateway, asked for v9 as discordgo v0.29 does by default.
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=9&encoding=json", nil)
	require.NoError(t, err)
	_, _, err = ws.ReadMessage()
	var ce *websocket.CloseError
	require.ErrorAs(t, err, &ce, "closed before HELLO")
	assert.Equal(t, 4012, ce.Code)
	_ = ws.Close()
	srv.Close()
	require.Len(t, rec.errors(), 1)
	assert.Contains(t, rec.errors()[0], "GET /api/v9/channels/c1")
	assert.Contains(t, rec.errors()[0], "GATEWAY /gateway")
}

// WithRequestCheck refuses what its check refuses, like Discord, and the
// test fails at cleanup; other requests are served.
func TestWithRequestCheckRefusesAndFails(t *testing.T) {
	t.Parallel()
	rec := &recTB{TB: t}
	srv := New(rec, WithGuild(testGuild()), WithRequestCheck(func(r *Request) error {
		if strings.Contains(string(r.Payload), "forbidden") {
			return errors.New("no forbidden words")
		}
		return nil
	}))
	dg, err := discordgo.New("Bot x")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	_, err = dg.ChannelMessageSend("c1", "fine")
	require.NoError(t, err)
	_, err = dg.ChannelMessageSend("c1", "forbidden")
	status, code := restCode(t, err)
	assert.Equal(t, 400, status)
	assert.Equal(t, 50035, code)
	assert.Len(t, srv.Messages("c1"), 1, "the refused message was not posted")
	srv.Close()
	require.Len(t, rec.errors(), 1)
	assert.Contains(t, rec.errors()[0], "no forbidden words")
}
