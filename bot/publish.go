package bot

// Publication model. A game has one live board message: the newest board
// recorded for it (storage.KindBoard). It carries the picture, what
// happened since the last player was called, whose decision it is, and
// the Take my turn / My hand buttons. When a decision chain ends and a
// player has a new decision, a new board is posted whose content mentions
// them (a new message is what notifies; an edit does not) and the previous
// board collapses to its text, without picture or buttons. When nobody new
// must be called (the other player of a simultaneous choice is still
// choosing, or the game ended) the live board is edited in place. So in an
// asynchronous game the board players decide from is always the newest
// message with buttons, and each call leaves one message in the channel.
//
// Everything is derived from the action log, so a restarted bot carries
// on exactly where the previous one stopped.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

const (
	maxBoardLines   = 12   // summary lines on a board (older ones are in /rfop log)
	maxBoardContent = 1900 // below Discord's 2000, for the notes
	codeUnknownMsg  = 10008
)

// chainInfo describes the decision chain that just ended.
type chainInfo struct {
	// from: the board lists the public log lines from this version on
	// (the start of the chain that last called a player).
	from int
	// since is the public view at from, to highlight what changed (nil
	// before the first move).
	since *engine.View
	// chainFrom: the version the chain began at.
	chainFrom int
	// explained: the solo opponent's explanations logged since from; the
	// board leaves them to /rfop log so that its summary shows the plays.
	explained map[string]bool
	// fresh: a human player has a decision they were not yet called for
	// (it began in this chain, or they acted in it).
	fresh bool
	// prevRound: the round when the chain began; known is false at the
	// game start.
	prevRound int8
	known     bool
	// called: the human sides the chain that just ended calls (a decision
	// they were not called for: it began in the chain, or they acted in
	// it); notify.go decides how, if at all, each is told.
	called [2]bool
}

// chainInfo replays the action log (cheap: well under a millisecond for a
// whole game) to find where the chain began and whether it calls anyone.
func (b *Bot) chainInfo(ctx context.Context, rec storage.Game, g *engine.Game) (chainInfo, error) {
	actions, err := b.Store.Actions(ctx, rec.ID)
	if err != nil {
		return chainInfo{}, fmt.Errorf("read actions of game %d: %w", rec.ID, err)
	}
	moves, err := decodeMoves(actions)
	if err != nil {
		return chainInfo{}, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	return b.chainInfoOf(rec, g, moves)
}

// chainInfoOf is chainInfo for the game g reached by moves.
func (b *Bot) chainInfoOf(rec storage.Game, g *engine.Game, moves []engine.Move) (chainInfo, error) {
	opts, err := gameOptions(rec, g.Deck())
	if err != nil {
		return chainInfo{}, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	var notes replayNotes
	if _, err := replayNoting(opts, moves, &notes); err != nil {
		return chainInfo{}, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	return b.chainInfoNoted(rec, g, moves, opts, notes)
}

// replayNotes is what a replay of a game's log noted of each version for
// its board (chainInfo): the decisions waited for and the round. The
// integrity check of a reminded game notes them as it replays (one
// replay for both: loadGameLog).
type replayNotes struct {
	deck   *engine.Deck // the deck replayed with
	moves  []engine.Move
	kinds  [][2]engine.PromptKind // by version: each side's decision
	rounds []int8                 // by version
}

// replayNoting is engine.Replay (same errors) noting each version in
// notes.
func replayNoting(opts engine.Options, moves []engine.Move, notes *replayNotes) (*engine.Game, error) {
	r, err := engine.New(opts)
	if err != nil {
		return nil, err
	}
	kinds := make([][2]engine.PromptKind, len(moves)+1)
	rounds := make([]int8, len(moves)+1)
	note := func(v int) {
		for _, p := range r.Prompts() {
			kinds[v][p.Side] = p.Kind
		}
		rounds[v] = r.S.Round
	}
	note(0)
	for k, m := range moves {
		if err := r.ApplyMove(m); err != nil {
			return nil, fmt.Errorf("replay: move %d (%s): %w", k+1, m.Side, err)
		}
		note(k + 1)
	}
	*notes = replayNotes{deck: opts.Deck, moves: moves, kinds: kinds, rounds: rounds}
	return r, nil
}

// chainInfoLogged is chainInfo from the log read with the game (and the
// check's notes of it, when it was checked on that log).
func (b *Bot) chainInfoLogged(rec storage.Game, g *engine.Game, notes *replayNotes) (chainInfo, error) {
	if notes.kinds == nil || notes.deck != g.Deck() || len(notes.kinds) != len(notes.moves)+1 {
		return b.chainInfoOf(rec, g, notes.moves)
	}
	opts, err := gameOptions(rec, g.Deck())
	if err != nil {
		return chainInfo{}, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	return b.chainInfoNoted(rec, g, notes.moves, opts, *notes)
}

// chainInfoNoted is chainInfoOf once the log is replayed.
func (b *Bot) chainInfoNoted(rec storage.Game, g *engine.Game, moves []engine.Move, opts engine.Options, notes replayNotes) (chainInfo, error) {
	kinds, rounds := notes.kinds, notes.rounds
	human := humanSides(rec)
	// calls reports whether the chain of moves [s, e) calls side.
	calls := func(s, e int, side engine.Side) bool {
		if !human[side] || kinds[e][side] == "" {
			return false
		}
		return kinds[s][side] == "" || slices.ContainsFunc(moves[s:e], func(m engine.Move) bool { return m.Side == side })
	}
	// fresh reports whether the chain of moves [s, e) calls a player.
	fresh := func(s, e int) bool {
		return calls(s, e, engine.Versailles) || calls(s, e, engine.Commune)
	}
	// begin is where the chain ending at e began. Between two players a
	// new round (or the Final Crisis) is published at once (roundEnded),
	// so a chain never reaches back across a round change.
	begin := func(e int) int {
		s := chainStart(moves[:e], autoSide(rec, g)) // the solo opponent's or the AI's replies belong to the chain
		if g.S.BotSide == engine.NoSide {
			for v := e - 1; v > s; v-- {
				if rounds[v] != rounds[v-1] {
					return v
				}
			}
		}
		return s
	}
	end := len(moves)
	if end == 0 {
		return chainInfo{fresh: anyHumanDecides(kinds[0], human),
			called: [2]bool{human[0] && kinds[0][0] != "", human[1] && kinds[0][1] != ""}}, nil
	}
	start := begin(end)
	info := chainInfo{chainFrom: start, fresh: fresh(start, end), prevRound: rounds[start], known: true,
		called: [2]bool{calls(start, end, engine.Versailles), calls(start, end, engine.Commune)}}
	// Walk back to the chain whose end called a player: its board is the
	// live one, and an edit in place keeps its lines.
	from, e := start, end
	for from > 0 && !fresh(from, e) {
		e = from
		from = begin(e)
	}
	info.from = from
	for _, m := range moves[from:] {
		if n := strings.TrimSpace(m.Note); n != "" {
			if info.explained == nil {
				info.explained = map[string]bool{}
			}
			info.explained[n] = true
		}
	}
	if sg, err := engine.Replay(opts, moves[:from]); err == nil {
		v := sg.ViewFor(engine.NoSide)
		info.since = &v
	}
	return info, nil
}

// isExplained reports whether e is one of the solo opponent's explanations
// of the chain (a note line; a line saved before messages by its text).
func (info chainInfo) isExplained(e *engine.LogEntry) bool {
	if n, ok := e.Note(); ok {
		// A note is an explanation: a message (Move.Why) always, the
		// English text of an older move when that move wrote it.
		return n == "" || info.explained[n]
	}
	return e.Msg == nil && len(info.explained) > 0 && info.explained[e.LegacyText]
}

func humanSides(rec storage.Game) [2]bool {
	var h [2]bool
	for _, p := range rec.Players {
		if s := engineSide(p.Side); !p.IsBot && (s == engine.Versailles || s == engine.Commune) {
			h[s] = true
		}
	}
	return h
}

func anyHumanDecides(kinds [2]engine.PromptKind, human [2]bool) bool {
	return human[0] && kinds[0] != "" || human[1] && kinds[1] != ""
}

// boardPost says how to show the board.
type boardPost struct {
	fresh  bool     // post a new board and collapse the live one
	notify bool     // a new board pings ping
	ping   []string // the users a notifying board pings
	notes  []string // public lines after the summary
	// release, if set, is the outbox lease the post holds, ended with
	// the recording of the new board (one transaction) and marked done.
	release *leaseRelease
	// live, if set, is the live board as read under that lease (a
	// reminder's claim reads it; ID 0: none), so that showBoard does not
	// read it again.
	live *storage.Message
}

// leaseRelease is an outbox lease to end with a board's recording.
type leaseRelease struct {
	holder string
	done   bool
	// pending: the game had undelivered publications when the lease
	// ended with the recording (RecordMessageRelease).
	pending bool
}

// showBoard posts a new board or edits the live one (see the package
// comment on the publication model). It fails only if no board could be
// shown at all.
func (b *Bot) showBoard(ctx context.Context, rec storage.Game, g *engine.Game, info chainInfo, bp boardPost) error {
	content := b.boardContent(ctx, rec, g, info, bp.notes)
	png := b.boardPicture(rec, g, info)
	comps := []discordgo.MessageComponent{turnRowIn(b.gamePrinter(rec), rec.ID)}
	if g.S.Result != nil {
		comps = b.resultRow(b.gamePrinter(rec), rec) // the result board: Rematch (two members), What decided this game?
	}
	var live storage.Message
	var haveLive bool
	if bp.live != nil {
		live, haveLive = *bp.live, bp.live.ID != 0
	} else {
		var err error
		live, err = b.Store.LatestMessage(ctx, rec.ID, storage.KindBoard)
		haveLive = err == nil
	}
	if haveLive && !bp.fresh {
		err := b.editBoard(live, content, comps, png)
		if err == nil {
			return nil
		}
		// Post a new board instead; the old one collapses below unless
		// it was deleted.
		if discordErrorCode(err) == codeUnknownMsg {
			_ = b.Store.DeleteMessage(ctx, live.ChannelID, live.MessageID)
			haveLive = false
		}
	}
	var notify []string
	if bp.notify {
		notify = bp.ping
	}
	send := &discordgo.MessageSend{Content: content, Components: comps,
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: notify}}
	if png != nil {
		send.Files = []*discordgo.File{pngFile("board.png", png)}
	}
	m, err := b.Session.ChannelMessageSendComplex(rec.ChannelID, send)
	if err != nil {
		if haveLive {
			// Keep at least the live board up to date.
			_ = b.editBoard(live, content, comps, png)
		}
		return fmt.Errorf("post board of game %d: %w", rec.ID, err)
	}
	board := storage.Message{GameID: rec.ID, Kind: storage.KindBoard, ChannelID: rec.ChannelID, MessageID: m.ID}
	if bp.release != nil && !bp.release.done {
		if _, pending, err := b.Store.RecordMessageRelease(ctx, board, bp.release.holder); err != nil {
			b.Log.Warn("record board message", "game", rec.ID, "err", err)
		} else {
			bp.release.done, bp.release.pending = true, pending
		}
	} else if _, err := b.Store.RecordMessage(ctx, board); err != nil {
		b.Log.Warn("record board message", "game", rec.ID, "err", err)
	}
	if haveLive {
		b.collapseBoard(ctx, live)
	}
	return nil
}

// boardPicture draws the public board (nil without a renderer or if the
// drawing failed: the board is then posted as text).
func (b *Bot) boardPicture(rec storage.Game, g *engine.Game, info chainInfo) []byte {
	png, _ := b.boardPictureUnless(rec, g, info, nil)
	return png
}

// boardDrawing is what the board picture of a game at a version is drawn
// from, and its key in the board cache (keyErr: none, drawn uncached).
type boardDrawing struct {
	game    int64
	lang    glossary.Lang
	deck    *engine.Deck
	view    engine.View
	since   *engine.View
	caption string
	key     [32]byte
	keyErr  error
}

func (b *Bot) boardDrawingOf(rec storage.Game, g *engine.Game, info chainInfo) boardDrawing {
	p := b.gamePrinter(rec)
	bd := boardDrawing{game: rec.ID, lang: p.Lang(), deck: g.Deck(), view: g.ViewFor(engine.NoSide), since: info.since, caption: b.caption(p, g, info)}
	bd.key, bd.keyErr = boardKey(bd.lang, bd.view, bd.since, bd.caption)
	return bd
}

// draw draws bd's picture in a render slot, giving up (errUnwanted)
// if unwanted says so once a slot is free (nil: never).
func (bd boardDrawing) draw(b *Bot, unwanted func() bool) (png []byte, err error) {
	paint := func() (err error) {
		png, err = b.Pictures.Board(bd.lang, bd.deck, bd.view, bd.since, bd.caption)
		return err
	}
	if unwanted == nil {
		err = b.drawingBoard(paint) // before png is read: the spec leaves a return's order open
		return png, err
	}
	asked := time.Now()
	err = b.drawingBoardUnless(bd.game, unwanted, func() error {
		// Only a board that waited for its slot looks again (a read of
		// the outbox): one drawn at once was checked just before.
		if time.Since(asked) > time.Millisecond && unwanted() {
			return errUnwanted
		}
		return paint()
	})
	return png, err
}

// boardPictureUnless is boardPicture, giving up (gaveUp) without drawing
// if unwanted says so once a render slot is free (nil: never). Under a
// burst a board waits seconds for a slot, and its game has often moved
// on meanwhile: the newer board supersedes it, and drawing it would only
// make every other board wait longer.
func (b *Bot) boardPictureUnless(rec storage.Game, g *engine.Game, info chainInfo, unwanted func() bool) (png []byte, gaveUp bool) {
	if b.Pictures == nil {
		return nil, false
	}
	bd := b.boardDrawingOf(rec, g, info)
	draw := func() ([]byte, error) { return bd.draw(b, unwanted) }
	var wait func(done <-chan struct{}) error
	if unwanted != nil {
		wait = func(done <-chan struct{}) error { return b.awaitDrawing(rec.ID, done, unwanted) }
	}
	var err error
	if bd.keyErr == nil {
		png, err = b.boards.board(bd.key, draw, wait, unwanted)
	} else {
		png, err = draw()
	}
	if errors.Is(err, errUnwanted) {
		return nil, true
	}
	if err != nil {
		b.Log.Error("render board", "game", rec.ID, "err", err)
		return nil, false
	}
	return png, false
}

// sharedBoardPicture is the board picture of g (at info) for a board that
// may go ahead of a hand DM waiting for a render slot: one already drawn
// for an identical board (boardCache). No pictures at all: nil, true. A
// picture not drawn that another game wants too (200 games started at
// once have alike first boards) is drawn in the background, for the
// games to come: none of them waits for it, since a publisher waiting
// for it would hold its game's hand DM out of the render queue, and
// boards wait there behind hands that have waited long (measured under
// a burst: games stalled for up to a minute).
func (b *Bot) sharedBoardPicture(rec storage.Game, g *engine.Game, info chainInfo) (png []byte, ok bool) {
	if b.Pictures == nil {
		return nil, true
	}
	bd := b.boardDrawingOf(rec, g, info)
	if bd.keyErr != nil {
		return nil, false
	}
	if png, ok := b.boards.drawn(bd.key); ok {
		return png, true
	}
	if b.boards.shared(bd.key, rec.ID) {
		go func() { _, _ = b.boards.board(bd.key, func() ([]byte, error) { return bd.draw(b, nil) }, nil, nil) }()
	}
	return nil, false
}

// errUnwanted: a board picture not drawn, its game having a newer board
// waiting by the time a render slot was free (boardPictureUnless).
var errUnwanted = errors.New("a newer board is waiting")

// editBoard replaces the live board's content, buttons and picture.
func (b *Bot) editBoard(live storage.Message, content string, comps []discordgo.MessageComponent, png []byte) error {
	keep := []*discordgo.MessageAttachment{} // replace the picture, never append
	edit := &discordgo.MessageEdit{ID: live.MessageID, Channel: live.ChannelID, Content: &content, Components: &comps,
		Attachments: &keep, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if png != nil {
		edit.Files = []*discordgo.File{pngFile("board.png", png)}
	}
	return editMessage(b.Session, edit)
}

// collapseBoard turns a superseded board into history: its text stays,
// its picture and buttons go, so only the newest board is live.
func (b *Bot) collapseBoard(ctx context.Context, old storage.Message) {
	none := []discordgo.MessageComponent{}
	noFiles := []*discordgo.MessageAttachment{}
	_, err := b.Session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: old.MessageID, Channel: old.ChannelID,
		Components: &none, Attachments: &noFiles, AllowedMentions: &discordgo.MessageAllowedMentions{}})
	if err == nil {
		return
	}
	if code := discordErrorCode(err); code != codeUnknownMsg && code != codeUnknownChannel {
		b.Log.Warn("collapse old board", "message", old.MessageID, "err", err)
	}
	// Never retried: forget it, so it is not taken for the live board.
	_ = b.Store.DeleteMessage(ctx, old.ChannelID, old.MessageID)
}

// retireBoard removes the live board's buttons when the game stops without
// a result (abandoned): they could only answer that it is not running.
func (b *Bot) retireBoard(ctx context.Context, gameID int64) {
	unlock := b.lockPublisher(gameID)
	defer unlock()
	live, err := b.Store.LatestMessage(ctx, gameID, storage.KindBoard)
	if err != nil {
		return
	}
	none := []discordgo.MessageComponent{}
	if _, err := b.Session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: live.MessageID, Channel: live.ChannelID,
		Components: &none, AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil {
		b.Log.Debug("retire board", "game", gameID, "err", err)
	}
}

// boardContent is the board's text: a title, the public log lines since
// info.from (the newest maxBoardLines, without the solo opponent's
// explanations), the notes and whose decision it is.
func (b *Bot) boardContent(ctx context.Context, rec storage.Game, g *engine.Game, info chainInfo, notes []string) string {
	p := b.gamePrinter(rec) // the game's public language, before measuring
	var lines []string
	for _, e := range g.S.Log {
		if e.Version >= info.from && e.To == engine.NoSide && !info.isExplained(&e) {
			lines = append(lines, p.LogLine(g.Deck(), e))
		}
	}
	head := p.T("bot.board.title", locale.Args{"Title": p.Term("Red Flag Over Paris"), "ID": rec.ID, "Round": roundNameIn(p, g.S.Round)}) + "\n"
	var tail strings.Builder
	for _, n := range notes {
		tail.WriteString(n + "\n")
	}
	if g.S.Result == nil {
		tail.WriteString(b.waitingIn(ctx, p, rec, g))
	}
	shown := lines
	if len(shown) > maxBoardLines {
		shown = shown[len(shown)-maxBoardLines+1:]
	}
	for {
		var sb strings.Builder
		sb.WriteString(head)
		if len(shown) < len(lines) {
			sb.WriteString("• …\n")
		}
		for _, l := range shown {
			sb.WriteString("• " + l + "\n")
		}
		sb.WriteString(tail.String())
		if len([]rune(sb.String())) <= maxBoardContent || len(shown) == 0 {
			return truncate(strings.TrimRight(sb.String(), "\n"), maxBoardContent)
		}
		shown = shown[1:]
	}
}

// caption goes on the picture: the round, the first public line of the
// chain (what was played) and who decides.
func (b *Bot) caption(p *locale.Printer, g *engine.Game, info chainInfo) string {
	c := roundNameIn(p, g.S.Round)
	for _, e := range g.S.Log {
		if e.Version >= info.chainFrom && e.To == engine.NoSide && !info.isExplained(&e) {
			line := truncate(p.LogLine(g.Deck(), e), 90)
			if e.Msg != nil && engine.NamesRound(e.Msg.ID) {
				c = line // "Round 2 begins" says the round: not "Round 2 · Round 2 begins"
			} else {
				c += " · " + line
			}
			break
		}
	}
	if ps := g.Prompts(); len(ps) > 0 {
		c += " · " + p.T("bot.caption.decide", locale.Args{"Side": p.Side(ps[0].Side)})
	}
	return c
}

// decidingUsers are the human players who must decide now.
func decidingUsers(rec storage.Game, g *engine.Game) []string {
	var users []string
	for _, p := range g.Prompts() {
		if pl, ok := rec.Player(sideKey(p.Side)); ok && !pl.IsBot && !slices.Contains(users, pl.UserID) {
			users = append(users, pl.UserID)
		}
	}
	return users
}

// repostBoard posts the board again as the newest message (/rfop board),
// collapsing the previous one; it calls nobody.
func (b *Bot) repostBoard(ctx context.Context, rec storage.Game, g *engine.Game, bp boardPost) error {
	unlock := b.lockPublisher(rec.ID) // not in the middle of a publication
	defer unlock()
	return b.repostBoardLocked(ctx, rec, g, nil, bp)
}

// repostBoardLocked is repostBoard under the game's publisher lock;
// logged, if not nil, is the game's log up to g (else read here).
func (b *Bot) repostBoardLocked(ctx context.Context, rec storage.Game, g *engine.Game, logged *replayNotes, bp boardPost) error {
	var info chainInfo
	var err error
	if logged != nil && logged.moves != nil && len(logged.moves) == g.S.Version {
		info, err = b.chainInfoLogged(rec, g, logged)
	} else {
		info, err = b.chainInfo(ctx, rec, g)
	}
	if err != nil {
		b.Log.Warn("repost board: read the decision chain", "game", rec.ID, "err", err)
		info = chainInfo{from: g.S.Version}
	}
	bp.fresh = true
	return b.showBoard(ctx, rec, g, info, bp)
}
