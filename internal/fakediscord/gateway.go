package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch            = 0
	opHeartbeat           = 1
	opIdentify            = 2
	opPresenceUpdate      = 3
	opRequestGuildMembers = 8
	opResume              = 6
	opInvalidSession      = 9
	opHello               = 10
	opHeartbeatAck        = 11
)

const gwWriteTimeout = 10 * time.Second

// ErrNoGatewaySession is returned by Dispatch when no gateway session has
// received READY within the dispatch wait.
var ErrNoGatewaySession = errors.New("fakediscord: no gateway session is connected and READY")

type gateway struct {
	mu       sync.Mutex
	closed   bool
	conns    map[*gwConn]bool // value: ready
	sessions map[string]*gwSession
	readyCh  chan struct{} // closed and replaced whenever a connection gets ready
	wg       sync.WaitGroup

	identifies int
	resumes    int
	heartbeats int
	maxBuf     int // dispatches kept per session for RESUME
}

func (g *gateway) init(maxBuf int) {
	g.maxBuf = maxBuf
	g.conns = map[*gwConn]bool{}
	g.sessions = map[string]*gwSession{}
	g.readyCh = make(chan struct{})
}

type gwSession struct {
	id      string
	token   string
	intents int
	shard   json.RawMessage
	// shardID and shardCount are the session's shard; a count of 0 or 1
	// (no shard sent, or [0, 1]) receives every guild's events.
	shardID, shardCount int

	mu   sync.Mutex // seq, buf
	seq  int64
	buf  []gwFrame
	conn *gwConn // guarded by gateway.mu
}

type gwFrame struct {
	seq  int64
	data []byte
}

type gwConn struct {
	ws        *websocket.Conn
	wmu       sync.Mutex // serialises writes
	sess      *gwSession // guarded by gateway.mu
	closeOnce sync.Once
}

func (c *gwConn) writeLocked(data []byte) error {
	_ = c.ws.SetWriteDeadline(time.Now().Add(gwWriteTimeout))
	return c.ws.WriteMessage(websocket.TextMessage, data)
}

func (c *gwConn) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.writeLocked(data)
}

// closeWith sends a close frame (best effort) and closes the connection.
func (c *gwConn) closeWith(code int, text string) {
	c.closeOnce.Do(func() {
		msg := websocket.FormatCloseMessage(code, text)
		_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		_ = c.ws.Close()
	})
}

// dispatchLocked sends an op 0 event on c for session sess. c.wmu must be
// held.
func (c *gwConn) dispatchLocked(sess *gwSession, t string, d json.RawMessage, maxBuf int, onSend func(time.Time)) error {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.seq++
	frame, err := json.Marshal(struct {
		Op int             `json:"op"`
		T  string          `json:"t"`
		S  int64           `json:"s"`
		D  json.RawMessage `json:"d"`
	}{opDispatch, t, sess.seq, d})
	if err != nil {
		return err
	}
	sess.buf = append(sess.buf, gwFrame{sess.seq, frame})
	if len(sess.buf) > 2*maxBuf { // trim rarely: keep the newest maxBuf
		sess.buf = append(sess.buf[:0:0], sess.buf[len(sess.buf)-maxBuf:]...)
	}
	if onSend != nil {
		onSend(time.Now())
	}
	return c.writeLocked(frame)
}

var upgrader = websocket.Upgrader{
	CheckOrigin:     func(*http.Request) bool { return true },
	ReadBufferSize:  4096,
	WriteBufferSize: 16384,
}

// serveGateway runs one gateway connection.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	g := &s.gw
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		http.Error(w, "fake discord is closed", http.StatusServiceUnavailable)
		return
	}
	g.wg.Add(1)
	g.mu.Unlock()
	defer g.wg.Done()

	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gwConn{ws: ws}
	if want := s.cfg.apiVersion; want != 0 && r.URL.Query().Get("v") != strconv.Itoa(want) {
		s.mu.Lock()
		s.badVersions = append(s.badVersions, "GATEWAY "+r.URL.RequestURI())
		s.mu.Unlock()
		c.closeWith(4012, "Invalid API version")
		return
	}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		_ = ws.Close()
		return
	}
	g.conns[c] = false
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.conns, c)
		g.mu.Unlock()
		c.closeWith(websocket.CloseNormalClosure, "")
		s.notify()
	}()

	ws.SetReadLimit(4 << 20)
	hello := map[string]any{"op": opHello, "s": nil, "t": nil,
		"d": map[string]any{"heartbeat_interval": s.cfg.heartbeat.Milliseconds()}}
	if err := c.write(hello); err != nil {
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			c.closeWith(4002, "Decode error")
			return
		}
		switch p.Op {
		case opHeartbeat:
			g.mu.Lock()
			g.heartbeats++
			g.mu.Unlock()
			if err := c.write(map[string]any{"op": opHeartbeatAck, "d": nil}); err != nil {
				return
			}
		case opIdentify:
			if !s.gwIdentify(c, p.D) {
				return
			}
		case opResume:
			if !s.gwResume(c, p.D) {
				return
			}
		case opRequestGuildMembers:
			s.gwGuildMembers(c, p.D)
		case opPresenceUpdate:
			// accepted and ignored
		}
	}
}

func (s *Server) tokenOK(tok string) bool {
	if s.cfg.token == "" {
		return tok != ""
	}
	return strings.TrimPrefix(tok, "Bot ") == s.cfg.token
}

func (s *Server) gwIdentify(c *gwConn, d json.RawMessage) bool {
	g := &s.gw
	var id struct {
		Token   string          `json:"token"`
		Intents int             `json:"intents"`
		Shard   json.RawMessage `json:"shard"`
	}
	if err := json.Unmarshal(d, &id); err != nil {
		c.closeWith(4002, "Decode error")
		return false
	}
	g.mu.Lock()
	already := c.sess != nil
	g.mu.Unlock()
	if already {
		c.closeWith(4005, "Already authenticated")
		return false
	}
	if !s.tokenOK(id.Token) {
		c.closeWith(4004, "Authentication failed")
		return false
	}
	sess := &gwSession{id: randHex(16), token: id.Token, intents: id.Intents, shard: id.Shard}
	if len(id.Shard) > 0 && string(id.Shard) != "null" {
		var sh []int
		if json.Unmarshal(id.Shard, &sh) != nil || len(sh) != 2 || sh[1] < 1 || sh[0] < 0 || sh[0] >= sh[1] {
			c.closeWith(4010, "Invalid shard")
			return false
		}
		sess.shardID, sess.shardCount = sh[0], sh[1]
	}

	s.mu.Lock()
	guildStubs := make([]map[string]any, 0, len(s.guildOrder))
	var creates []json.RawMessage
	for _, gid := range s.guildOrder {
		if !sess.owns(gid) {
			continue // another shard's guild: not in this READY
		}
		if s.guilds[gid].cfg.WithoutBot {
			continue // the bot is not a member
		}
		guildStubs = append(guildStubs, map[string]any{"id": gid, "unavailable": true})
		b, _ := json.Marshal(s.guildCreateLocked(s.guilds[gid]))
		creates = append(creates, b)
	}
	ready := map[string]any{
		"v":                  10,
		"user":               s.bot,
		"session_id":         sess.id,
		"session_type":       "normal",
		"resume_gateway_url": s.GatewayURL(),
		"guilds":             guildStubs,
		"private_channels":   []any{},
		"relationships":      []any{},
		"presences":          []any{},
		"user_settings":      map[string]any{},
		"application":        map[string]any{"id": s.appID, "flags": 0},
	}
	if len(id.Shard) > 0 && string(id.Shard) != "null" {
		ready["shard"] = id.Shard
	}
	s.mu.Unlock()
	readyJSON, _ := json.Marshal(ready)

	c.wmu.Lock()
	g.mu.Lock()
	c.sess = sess
	sess.conn = c
	g.sessions[sess.id] = sess
	g.identifies++
	g.mu.Unlock()
	err := c.dispatchLocked(sess, "READY", readyJSON, s.gw.maxBuf, nil)
	for _, gc := range creates {
		if err == nil {
			err = c.dispatchLocked(sess, "GUILD_CREATE", gc, s.gw.maxBuf, nil)
		}
	}
	if err == nil {
		s.markReady(c)
	}
	c.wmu.Unlock()
	return err == nil
}

func (s *Server) markReady(c *gwConn) {
	g := &s.gw
	g.mu.Lock()
	if _, ok := g.conns[c]; ok {
		g.conns[c] = true
	}
	close(g.readyCh)
	g.readyCh = make(chan struct{})
	g.mu.Unlock()
	s.notify()
}

func (s *Server) gwResume(c *gwConn, d json.RawMessage) bool {
	g := &s.gw
	var rp struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &rp); err != nil {
		c.closeWith(4002, "Decode error")
		return false
	}
	if !s.tokenOK(rp.Token) {
		c.closeWith(4004, "Authentication failed")
		return false
	}
	invalid := func() bool {
		return c.write(map[string]any{"op": opInvalidSession, "d": false}) == nil
	}
	g.mu.Lock()
	sess := g.sessions[rp.SessionID]
	if sess == nil || c.sess != nil {
		g.mu.Unlock()
		return invalid()
	}
	old := sess.conn
	g.mu.Unlock()

	c.wmu.Lock()
	sess.mu.Lock()
	var replay [][]byte
	ok := rp.Seq <= sess.seq
	if len(sess.buf) > 0 && rp.Seq < sess.buf[0].seq-1 {
		ok = false // events were lost
	}
	if ok {
		for _, f := range sess.buf {
			if f.seq > rp.Seq {
				replay = append(replay, f.data)
			}
		}
	}
	sess.mu.Unlock()
	if !ok {
		c.wmu.Unlock()
		return invalid()
	}
	g.mu.Lock()
	c.sess = sess
	sess.conn = c
	g.resumes++
	g.mu.Unlock()
	var err error
	for _, f := range replay {
		if err == nil {
			err = c.writeLocked(f)
		}
	}
	if err == nil {
		err = c.dispatchLocked(sess, "RESUMED", json.RawMessage(`{}`), s.gw.maxBuf, nil)
	}
	if err == nil {
		s.markReady(c)
	}
	c.wmu.Unlock()
	if old != nil && old != c {
		g.mu.Lock()
		delete(g.conns, old)
		g.mu.Unlock()
		old.closeWith(4000, "session resumed elsewhere")
	}
	return err == nil
}

func (s *Server) gwGuildMembers(c *gwConn, d json.RawMessage) {
	var rq struct {
		GuildID json.RawMessage `json:"guild_id"`
		Nonce   string          `json:"nonce"`
	}
	if json.Unmarshal(d, &rq) != nil {
		return
	}
	var ids []string
	if json.Unmarshal(rq.GuildID, &ids) != nil {
		var one string
		if json.Unmarshal(rq.GuildID, &one) != nil {
			return
		}
		ids = []string{one}
	}
	s.gw.mu.Lock()
	sess := c.sess
	s.gw.mu.Unlock()
	if sess == nil {
		return
	}
	for _, gid := range ids {
		s.mu.Lock()
		gs := s.guilds[gid]
		if gs == nil {
			s.mu.Unlock()
			continue
		}
		chunk, _ := json.Marshal(map[string]any{
			"guild_id": gid, "members": s.guildMembersLocked(gs), "chunk_index": 0, "chunk_count": 1, "nonce": rq.Nonce,
		})
		s.mu.Unlock()
		c.wmu.Lock()
		_ = c.dispatchLocked(sess, "GUILD_MEMBERS_CHUNK", chunk, s.gw.maxBuf, nil)
		c.wmu.Unlock()
	}
}

// ShardOf returns the shard that receives a guild's events among count
// shards, by Discord's formula (guild_id >> 22) % count. DMs (guildID "")
// belong to shard 0, and so does a guild id that is not a snowflake (the
// short ids of unsharded tests, such as "g1").
func ShardOf(guildID string, count int) int {
	if count <= 1 || guildID == "" {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// owns reports whether the session receives the guild's events ("" for a
// DM or an event of no guild).
func (sess *gwSession) owns(guildID string) bool {
	return sess.shardCount <= 1 || ShardOf(guildID, sess.shardCount) == sess.shardID
}

// anyGuild routes an event to every ready session, sharded or not.
const anyGuild = "\x00any"

// readyConns returns the connections that have received READY/RESUMED
// and receive the guild's events (anyGuild: all of them).
func (g *gateway) readyConns(guildID string) []*gwConn {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []*gwConn
	for c, ready := range g.conns {
		if ready && c.sess != nil && (guildID == anyGuild || c.sess.owns(guildID)) {
			out = append(out, c)
		}
	}
	return out
}

// waitReady waits until at least one connection that receives the
// guild's events is ready (anyGuild: any connection), or ctx ends.
func (g *gateway) waitReady(ctx context.Context, guildID string) bool {
	for {
		g.mu.Lock()
		n := 0
		for c, ready := range g.conns {
			if ready && c.sess != nil && (guildID == anyGuild || c.sess.owns(guildID)) {
				n++
			}
		}
		ch, closed := g.readyCh, g.closed
		g.mu.Unlock()
		if n > 0 {
			return true
		}
		if closed || ctx.Err() != nil {
			return false
		}
		select {
		case <-ch:
		case <-ctx.Done():
		}
	}
}

// broadcast dispatches an event to every ready connection that receives
// the guild's events (the shard that owns it; "" is a DM, shard 0's).
// onSend is called with the time just before the first write. It returns
// how many connections got the event.
func (g *gateway) broadcast(t, guildID string, data any, onSend func(time.Time)) int {
	raw, ok := data.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(data)
		if err != nil {
			return 0
		}
		raw = b
	}
	sent := 0
	for _, c := range g.readyConns(guildID) {
		g.mu.Lock()
		sess := c.sess
		g.mu.Unlock()
		if sess == nil {
			continue
		}
		var once func(time.Time)
		if sent == 0 {
			once = onSend
		}
		c.wmu.Lock()
		err := c.dispatchLocked(sess, t, raw, g.maxBuf, once)
		c.wmu.Unlock()
		if err != nil {
			c.closeWith(websocket.CloseAbnormalClosure, "")
			continue
		}
		sent++
	}
	return sent
}

func (g *gateway) closeAll() {
	g.mu.Lock()
	g.closed = true
	conns := make([]*gwConn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
	}
	close(g.readyCh)
	g.readyCh = make(chan struct{})
	g.mu.Unlock()
	for _, c := range conns {
		c.closeWith(websocket.CloseGoingAway, "fake discord closed")
	}
}

// Dispatch sends an arbitrary gateway event (op 0, with the next sequence
// number) to every connected session that receives its guild's events,
// waiting up to the dispatch wait for one to be READY. The guild is the
// event's "guild_id" (for GUILD_CREATE, GUILD_UPDATE and GUILD_DELETE its
// "id"); an event without one goes to shard 0, as DMs do. data is
// marshalled to JSON (a json.RawMessage is sent as is).
func (s *Server) Dispatch(eventType string, data any) error {
	raw, ok := data.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(data)
		if err != nil {
			return fmt.Errorf("fakediscord: Dispatch %s: %w", eventType, err)
		}
		raw = b
	}
	guildID := eventGuild(eventType, raw)
	ctx, cancel := s.dispatchContext()
	defer cancel()
	if !s.gw.waitReady(ctx, guildID) {
		return ErrNoGatewaySession
	}
	if s.gw.broadcast(eventType, guildID, raw, nil) == 0 {
		return ErrNoGatewaySession
	}
	return nil
}

// eventGuild returns the guild an event belongs to ("" if none).
func eventGuild(eventType string, raw json.RawMessage) string {
	var ev struct {
		ID      string `json:"id"`
		GuildID string `json:"guild_id"`
	}
	if json.Unmarshal(raw, &ev) != nil {
		return ""
	}
	if strings.HasPrefix(eventType, "GUILD_") && ev.GuildID == "" {
		switch eventType {
		case "GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE":
			return ev.ID
		}
	}
	return ev.GuildID
}

// WaitReady waits until a gateway session has received READY (or
// RESUMED), or ctx ends.
func (s *Server) WaitReady(ctx context.Context) error {
	if !s.gw.waitReady(ctx, anyGuild) {
		return fmt.Errorf("%w (%v)", ErrNoGatewaySession, stopped(ctx))
	}
	return nil
}

// WaitGuildReady waits until a gateway session that receives the guild's
// events ("" for DMs: shard 0) has received READY (or RESUMED): with
// several shards, until the shard that owns the guild is connected. It
// gives up when ctx ends.
func (s *Server) WaitGuildReady(ctx context.Context, guildID string) error {
	if !s.gw.waitReady(ctx, guildID) {
		return fmt.Errorf("%w for guild %q (%v)", ErrNoGatewaySession, guildID, stopped(ctx))
	}
	return nil
}

// GatewayStats counts gateway activity.
type GatewayStats struct {
	Connections int // open websocket connections
	Ready       int // of which have received READY or RESUMED
	Identifies  int // IDENTIFY payloads accepted, ever
	Resumes     int // successful RESUMEs, ever
	Heartbeats  int // heartbeats acknowledged, ever
	// ReadyShards counts the ready connections by shard id (an unsharded
	// session counts as shard 0).
	ReadyShards map[int]int
}

// GatewayStats returns the current gateway counters.
func (s *Server) GatewayStats() GatewayStats {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	st := GatewayStats{Connections: len(g.conns), Identifies: g.identifies, Resumes: g.resumes, Heartbeats: g.heartbeats,
		ReadyShards: map[int]int{}}
	for c, ready := range g.conns {
		if ready {
			st.Ready++
			if c.sess != nil {
				st.ReadyShards[c.sess.shardID]++
			}
		}
	}
	return st
}

// DisconnectAll drops every gateway connection (close code 4000), as when
// Discord's gateway restarts. Sessions stay resumable: discordgo reconnects
// (after the 1s sleep of its Close) and sends RESUME, which the fake answers
// by replaying missed events and RESUMED. Wait for a heartbeat after Open
// (GatewayStats().Heartbeats) before dropping: discordgo v0.29 reconnects
// twice if its heartbeat goroutine has not started yet.
func (s *Server) DisconnectAll() {
	s.disconnect(false)
}

// InvalidateSessions drops every gateway connection and forgets the
// sessions, so that RESUME is answered with INVALID_SESSION and the client
// must IDENTIFY again (and gets a new READY).
func (s *Server) InvalidateSessions() {
	s.disconnect(true)
}

func (s *Server) disconnect(forget bool) {
	g := &s.gw
	g.mu.Lock()
	conns := make([]*gwConn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
		g.conns[c] = false
	}
	if forget {
		g.sessions = map[string]*gwSession{}
	}
	g.mu.Unlock()
	for _, c := range conns {
		c.closeWith(4000, "fake discord: disconnected")
	}
	s.notify()
}
