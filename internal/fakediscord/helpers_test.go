package fakediscord

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/testctx"
)

// testGuild is the guild most tests use: u1 owns it, u2 is a member with
// the "player" role.
func testGuild() Guild {
	return Guild{
		ID: "g1", Name: "Paris", OwnerID: "u1",
		Channels: []Channel{{ID: "c1", Name: "general"}, {ID: "c2", Name: "games"}},
		Roles:    []Role{{ID: "r1", Name: "player", Permissions: discordgo.PermissionManageMessages}},
		Members: []Member{
			{UserID: "u1", Username: "alice"},
			{UserID: "u2", Username: "bob", Roles: []string{"r1"}},
		},
	}
}

// open connects a real discordgo session to the fake, with handlers added
// before Open. The session is closed at cleanup (before the fake).
func open(t *testing.T, srv *Server, handlers ...any) *discordgo.Session {
	t.Helper()
	ctx := testctx.Context(t)
	dg, err := discordgo.New("Bot test-token")
	require.NoError(t, err)
	dg.Client = srv.HTTPClient()
	dg.LogLevel = discordgo.LogWarning
	for _, h := range handlers {
		dg.AddHandler(h)
	}
	require.NoError(t, dg.Open())
	t.Cleanup(func() { _ = dg.Close() })
	require.NoError(t, srv.WaitReady(ctx))
	return dg
}

// respondWith is an InteractionCreate handler that runs f (errors go to
// the test via the returned channel).
func respondWith(f func(s *discordgo.Session, i *discordgo.InteractionCreate) error) (func(*discordgo.Session, *discordgo.InteractionCreate), <-chan error) {
	errs := make(chan error, 1000)
	return func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if err := f(s, i); err != nil {
			errs <- err
		}
	}, errs
}

func noErrors(t *testing.T, errs <-chan error) {
	t.Helper()
	select {
	case err := <-errs:
		t.Fatalf("handler: %v", err)
	default:
	}
}

func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func file(name string, data []byte) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: bytes.NewReader(data)}
}

func row(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: cs}
}

func button(label, id string) discordgo.Button {
	return discordgo.Button{Label: label, CustomID: id, Style: discordgo.PrimaryButton}
}

func ptr[T any](v T) *T { return &v }

// restCode returns the Discord error code of a discordgo REST error.
func restCode(t *testing.T, err error) (status, code int) {
	t.Helper()
	var re *discordgo.RESTError
	require.True(t, errors.As(err, &re), "want *discordgo.RESTError, got %T: %v", err, err)
	require.NotNil(t, re.Message, "error body: %s", re.ResponseBody)
	return re.Response.StatusCode, re.Message.Code
}

// recTB records Errorf calls instead of failing, to test the fake's own
// failure reports.
type recTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recTB) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}
