package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// apiErr is a Discord JSON error.
type apiErr struct {
	status int
	code   int
	msg    string
	errors any
}

func invalidForm(field, msg string) *apiErr {
	return &apiErr{status: 400, code: 50035, msg: "Invalid Form Body",
		errors: map[string]any{field: map[string]any{"_errors": []map[string]string{{"code": "BASE_TYPE_INVALID", "message": msg}}}}}
}

func errBadJSON(err error) *apiErr {
	return &apiErr{status: 400, code: 50109, msg: "The request body contains invalid JSON. (" + err.Error() + ")"}
}

var (
	errUnknownChannel     = &apiErr{status: 404, code: 10003, msg: "Unknown Channel"}
	errUnknownGuild       = &apiErr{status: 404, code: 10004, msg: "Unknown Guild"}
	errUnknownMember      = &apiErr{status: 404, code: 10007, msg: "Unknown Member"}
	errUnknownMessage     = &apiErr{status: 404, code: 10008, msg: "Unknown Message"}
	errUnknownUser        = &apiErr{status: 404, code: 10013, msg: "Unknown User"}
	errUnknownWebhook     = &apiErr{status: 404, code: 10015, msg: "Unknown Webhook"}
	errUnknownApp         = &apiErr{status: 404, code: 10002, msg: "Unknown Application"}
	errUnknownInteraction = &apiErr{status: 404, code: 10062, msg: "Unknown interaction"}
	errUnknownCommand     = &apiErr{status: 404, code: 10063, msg: "Unknown application command"}
	errAlreadyAcked       = &apiErr{status: 400, code: 40060, msg: "Interaction has already been acknowledged."}
	errCannotDM           = &apiErr{status: 403, code: 50007, msg: "Cannot send messages to this user"}
	errNoMutualGuilds     = &apiErr{status: 403, code: 50278, msg: "Cannot send messages to this user due to having no mutual guilds"}
	errNotAuthor          = &apiErr{status: 403, code: 50005, msg: "Cannot edit a message authored by another user"}
	errMissingAccess      = &apiErr{status: 403, code: 50001, msg: "Missing Access"}
	errUnauthorized       = &apiErr{status: 401, code: 0, msg: "401: Unauthorized"}
)

// rctx is one REST request being served.
type rctx struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	req    *Request
	files  []*upload
	p      []string // route wildcards
	status int
	events []pendingEvent
}

type pendingEvent struct {
	t     string
	guild string // routes the event to the shard that owns it
	d     any
}

func (c *rctx) fields() (fields, *apiErr) { return decodeFields(c.req.Payload) }

// emit queues a gateway event, sent after the response.
func (c *rctx) emit(t string, d any) {
	if t != "" {
		raw, err := json.Marshal(d)
		if err != nil {
			return
		}
		c.events = append(c.events, pendingEvent{t, eventGuild(t, raw), json.RawMessage(raw)})
	}
}

func (c *rctx) json(status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.fail(&apiErr{status: 500, msg: "fake discord: " + err.Error()})
		return
	}
	c.status = status
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(status)
	_, _ = c.w.Write(b)
}

func (c *rctx) noContent() {
	c.status = http.StatusNoContent
	c.w.WriteHeader(http.StatusNoContent)
}

func (c *rctx) fail(e *apiErr) {
	body := map[string]any{"message": e.msg, "code": e.code}
	if e.errors != nil {
		body["errors"] = e.errors
	}
	b, _ := json.Marshal(body)
	c.status = e.status
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(e.status)
	_, _ = c.w.Write(b)
}

type route struct {
	method  string
	pattern string
	segs    []string
	auth    bool
	h       func(*Server, *rctx)
}

var routes []*route

func init() {
	add := func(method, pattern string, auth bool, h func(*Server, *rctx)) {
		routes = append(routes, &route{method: method, pattern: pattern, segs: strings.Split(strings.Trim(pattern, "/"), "/"), auth: auth, h: h})
	}
	add("GET", "/gateway", false, (*Server).getGateway)
	add("GET", "/gateway/bot", true, (*Server).getGateway)

	add("GET", "/users/@me", true, (*Server).getMe)
	add("GET", "/users/@me/guilds", true, (*Server).getMyGuilds)
	add("POST", "/users/@me/channels", true, (*Server).createDM)
	add("GET", "/users/{}", true, (*Server).getUser)
	add("GET", "/oauth2/applications/@me", true, (*Server).getApp)
	add("GET", "/applications/@me", true, (*Server).getApp)

	for _, base := range []string{"/applications/{}/commands", "/applications/{}/guilds/{}/commands"} {
		add("GET", base, true, (*Server).listCommands)
		add("PUT", base, true, (*Server).overwriteCommands)
		add("POST", base, true, (*Server).createCommand)
		add("GET", base+"/{}", true, (*Server).getCommand)
		add("PATCH", base+"/{}", true, (*Server).editCommand)
		add("DELETE", base+"/{}", true, (*Server).deleteCommand)
	}

	add("POST", "/interactions/{}/{}/callback", false, (*Server).interactionCallback)
	add("POST", "/webhooks/{}/{}", false, (*Server).createFollowup)
	add("GET", "/webhooks/{}/{}/messages/{}", false, (*Server).getWebhookMessage)
	add("PATCH", "/webhooks/{}/{}/messages/{}", false, (*Server).editWebhookMessage)
	add("DELETE", "/webhooks/{}/{}/messages/{}", false, (*Server).deleteWebhookMessage)

	add("GET", "/channels/{}", true, (*Server).getChannel)
	add("GET", "/channels/{}/messages", true, (*Server).listChannelMessages)
	add("POST", "/channels/{}/messages", true, (*Server).createChannelMessage)
	add("GET", "/channels/{}/messages/{}", true, (*Server).getChannelMessage)
	add("PATCH", "/channels/{}/messages/{}", true, (*Server).editChannelMessage)
	add("DELETE", "/channels/{}/messages/{}", true, (*Server).deleteChannelMessage)
	add("POST", "/channels/{}/typing", true, (*Server).typing)

	add("GET", "/guilds/{}", true, (*Server).getGuild)
	add("GET", "/guilds/{}/channels", true, (*Server).getGuildChannels)
	add("GET", "/guilds/{}/roles", true, (*Server).getGuildRoles)
	add("GET", "/guilds/{}/members", true, (*Server).listGuildMembers)
	add("GET", "/guilds/{}/members/{}", true, (*Server).getGuildMember)
}

func (rt *route) match(method string, segs []string) ([]string, bool) {
	if rt.method != method || len(rt.segs) != len(segs) {
		return nil, false
	}
	var params []string
	for i, want := range rt.segs {
		if want == "{}" {
			if segs[i] == "" {
				return nil, false
			}
			params = append(params, segs[i])
		} else if want != segs[i] {
			return nil, false
		}
	}
	return params, true
}

var apiPrefix = regexp.MustCompile(`^/api/v([0-9]+)(/|$)`)

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "/gateway" || p == "/gateway/" {
		s.serveGateway(w, r)
		return
	}
	if strings.HasPrefix(p, "/attachments/") && r.Method == http.MethodGet {
		s.serveAttachment(w, r)
		return
	}
	at := time.Now()
	rel, isAPI, version := p, false, 0
	if loc := apiPrefix.FindStringSubmatchIndex(p); loc != nil {
		rel, isAPI = "/"+strings.TrimPrefix(p[loc[1]:], "/"), true
		version, _ = strconv.Atoi(p[loc[2]:loc[3]])
	}
	c := &rctx{s: s, w: w, r: r}
	raw, payload, files, err := parseBody(r)
	c.files = files
	req := &Request{Method: r.Method, Path: rel, Query: r.URL.Query(), Header: r.Header.Clone(), Body: raw, Payload: payload, At: at,
		APIVersion: version}
	for _, f := range files {
		req.Files = append(req.Files, f.name)
	}
	c.req = req

	var rt *route
	if isAPI {
		segs := strings.Split(strings.Trim(rel, "/"), "/")
		for _, cand := range routes {
			if params, ok := cand.match(r.Method, segs); ok {
				rt, c.p = cand, params
				break
			}
		}
	}
	if rt != nil {
		req.Route = rt.method + " " + rt.pattern
	}

	var checkErr error
	if isAPI && err == nil && s.cfg.requestCheck != nil {
		checkErr = s.cfg.requestCheck(req)
	}
	logged := *req
	logged.Body, logged.Payload = nil, nil
	s.mu.Lock()
	if checkErr != nil {
		s.refused = append(s.refused, checkErr.Error())
	}
	s.requests = append(s.requests, &logged)
	fault := s.takeFaultLocked(req)
	badVersion := isAPI && s.cfg.apiVersion != 0 && version != s.cfg.apiVersion
	if badVersion {
		s.badVersions = append(s.badVersions, r.Method+" "+r.URL.RequestURI())
	}
	if rt == nil && fault == nil && !badVersion {
		s.unknown = append(s.unknown, r.Method+" "+r.URL.RequestURI())
	}
	logged.Injected = fault != nil
	s.mu.Unlock()

	limited := false
	if fault == nil && rt != nil && s.cfg.rateN > 0 {
		if bucket := channelBucket(r.Method, rel); bucket != "" {
			limited = !s.takeRate(w, bucket, at)
		}
	}
	switch {
	case fault != nil:
		fault.write(w)
		c.status = fault.status
	case limited:
		c.status = http.StatusTooManyRequests
	case badVersion:
		c.fail(&apiErr{status: 400, code: 50041, msg: "Invalid API version provided"})
	case checkErr != nil:
		c.fail(&apiErr{status: 400, code: 50035, msg: "Invalid Form Body: " + checkErr.Error()})
	case err != nil:
		c.fail(&apiErr{status: 400, code: 50109, msg: "fake discord: " + err.Error()})
	case rt == nil:
		s.logf("unknown route %s %s", r.Method, r.URL.RequestURI())
		c.fail(&apiErr{status: 404, code: 0, msg: "fake discord: unknown route " + r.Method + " " + r.URL.Path})
	case rt.auth && s.cfg.token != "" && !s.tokenOK(r.Header.Get("Authorization")):
		c.fail(errUnauthorized)
	default:
		rt.h(s, c)
		if c.status == 0 {
			c.status = http.StatusOK
		}
	}
	s.mu.Lock()
	logged.Status = c.status
	s.notifyLocked()
	events := c.events[:0]
	for _, ev := range c.events {
		if !s.withoutBotLocked(ev.guild) {
			events = append(events, ev) // the bot gets no event of a guild it is not in
		}
	}
	s.mu.Unlock()
	for _, ev := range events {
		s.gw.broadcast(ev.t, ev.guild, ev.d, nil)
	}
}

func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	if len(parts) >= 2 {
		s.mu.Lock()
		var found *Attachment
		for _, a := range s.files {
			if a.ID == parts[1] {
				found = a
			}
		}
		s.mu.Unlock()
		if found != nil {
			w.Header().Set("Content-Type", found.ContentType)
			_, _ = w.Write(found.Data)
			return
		}
	}
	http.NotFound(w, r)
}

// --- gateway, users, application ---

func (s *Server) getGateway(c *rctx) {
	out := map[string]any{"url": s.GatewayURL()}
	if strings.HasSuffix(c.req.Path, "/bot") {
		shards := max(s.cfg.shards, 1)
		out["shards"] = shards
		out["session_start_limit"] = map[string]int{"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
	}
	c.json(200, out)
}

func (s *Server) getMe(c *rctx) { c.json(200, s.BotUser()) }

func (s *Server) getUser(c *rctx) {
	s.mu.Lock()
	_, ok := s.users[c.p[0]]
	var u *discordgo.User
	if ok {
		u = s.discordUserLocked(c.p[0])
	}
	s.mu.Unlock()
	if !ok {
		c.fail(errUnknownUser)
		return
	}
	c.json(200, u)
}

func (s *Server) getMyGuilds(c *rctx) {
	s.mu.Lock()
	out := []map[string]any{}
	for _, id := range s.guildOrder {
		gs := s.guilds[id]
		if gs.cfg.WithoutBot {
			continue
		}
		out = append(out, map[string]any{"id": id, "name": gs.cfg.Name, "owner": false, "permissions": strconv.FormatInt(discordgo.PermissionAll, 10), "features": []string{}})
	}
	s.mu.Unlock()
	c.json(200, out)
}

func (s *Server) getApp(c *rctx) {
	c.json(200, map[string]any{"id": s.appID, "name": s.bot.Username, "description": "", "bot": s.BotUser(), "flags": 0, "bot_public": true})
}

func (s *Server) createDM(c *rctx) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := json.Unmarshal(c.req.Payload, &body); err != nil {
		c.fail(errBadJSON(err))
		return
	}
	if body.RecipientID == "" {
		c.fail(invalidForm("recipient_id", "This field is required"))
		return
	}
	s.mu.Lock()
	if _, ok := s.users[body.RecipientID]; !ok || body.RecipientID == s.bot.ID {
		s.mu.Unlock()
		c.fail(errUnknownUser)
		return
	}
	ch := s.channelLocked(s.dmChannelLocked(body.RecipientID))
	s.notifyLocked()
	s.mu.Unlock()
	c.json(200, ch)
}

// --- guilds ---

func (s *Server) guildLockedOrErr(id string) (*guildState, *apiErr) {
	gs := s.guilds[id]
	if gs == nil {
		return nil, errUnknownGuild
	}
	if gs.cfg.WithoutBot {
		return nil, errMissingAccess
	}
	return gs, nil
}

func (s *Server) getGuild(c *rctx) {
	s.mu.Lock()
	gs, e := s.guildLockedOrErr(c.p[0])
	var g *discordgo.Guild
	if e == nil {
		g = s.guildLocked(gs)
		g.ApproximateMemberCount = len(gs.members)
	}
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, g)
}

func (s *Server) getGuildChannels(c *rctx) {
	s.mu.Lock()
	gs, e := s.guildLockedOrErr(c.p[0])
	var out []*discordgo.Channel
	if e == nil {
		out = s.guildChannelsLocked(gs)
	}
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, out)
}

func (s *Server) getGuildRoles(c *rctx) {
	s.mu.Lock()
	gs, e := s.guildLockedOrErr(c.p[0])
	var out []*discordgo.Role
	if e == nil {
		out = s.rolesLocked(gs)
	}
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, out)
}

func (s *Server) listGuildMembers(c *rctx) {
	limit := 1
	if v, err := strconv.Atoi(c.req.Query.Get("limit")); err == nil && v > 0 {
		limit = min(v, 1000)
	}
	after := c.req.Query.Get("after")
	s.mu.Lock()
	gs, e := s.guildLockedOrErr(c.p[0])
	out := []*discordgo.Member{}
	if e == nil {
		ids := slices.Clone(gs.order)
		slices.SortFunc(ids, compareIDs)
		for _, id := range ids {
			if after != "" && compareIDs(id, after) <= 0 {
				continue
			}
			if len(out) == limit {
				break
			}
			out = append(out, s.memberLocked(gs, id))
		}
	}
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, out)
}

func (s *Server) getGuildMember(c *rctx) {
	s.mu.Lock()
	gs, e := s.guildLockedOrErr(c.p[0])
	var m *discordgo.Member
	if e == nil {
		if m = s.memberLocked(gs, c.p[1]); m == nil {
			e = errUnknownMember
		}
	}
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, m)
}

// compareIDs orders snowflakes numerically (shorter is smaller).
func compareIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// --- channels and messages ---

// channelLockedOrErr returns a live channel.
func (s *Server) channelLockedOrErr(id string) (*channelState, *apiErr) {
	cs := s.channels[id]
	if cs == nil || cs.Deleted {
		return nil, errUnknownChannel
	}
	return cs, nil
}

// botChannelLockedOrErr returns a live channel the bot may use through
// the REST API: not one of a guild it is not in (Guild.WithoutBot).
func (s *Server) botChannelLockedOrErr(id string) (*channelState, *apiErr) {
	cs, e := s.channelLockedOrErr(id)
	if e == nil && s.withoutBotLocked(cs.GuildID) {
		return nil, errMissingAccess
	}
	return cs, e
}

// withoutBotLocked: the guild is one the bot is not in.
func (s *Server) withoutBotLocked(guildID string) bool {
	gs := s.guilds[guildID]
	return gs != nil && gs.cfg.WithoutBot
}

func (s *Server) getChannel(c *rctx) {
	s.mu.Lock()
	cs, e := s.botChannelLockedOrErr(c.p[0])
	var ch *discordgo.Channel
	if e == nil {
		ch = s.channelLocked(cs)
	}
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, ch)
}

func (s *Server) listChannelMessages(c *rctx) {
	limit := 50
	if v, err := strconv.Atoi(c.req.Query.Get("limit")); err == nil && v > 0 {
		limit = min(v, 100)
	}
	before, after := c.req.Query.Get("before"), c.req.Query.Get("after")
	s.mu.Lock()
	cs, e := s.botChannelLockedOrErr(c.p[0])
	out := []*wireMessage{}
	if e == nil {
		vis := s.visibleLocked(cs.ID)
		for i := len(vis) - 1; i >= 0 && len(out) < limit; i-- {
			m := vis[i]
			if before != "" && compareIDs(m.ID, before) >= 0 {
				continue
			}
			if after != "" && compareIDs(m.ID, after) <= 0 {
				continue
			}
			out = append(out, s.wireLocked(m))
		}
	}
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, out)
}

func (s *Server) createChannelMessage(c *rctx) {
	f, e := c.fields()
	if e != nil {
		c.fail(e)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cs, e := s.botChannelLockedOrErr(c.p[0])
	if e != nil {
		c.fail(e)
		return
	}
	if cs.RecipientID != "" && s.closedDMs[cs.RecipientID] {
		c.fail(errCannotDM)
		return
	}
	if cs.RecipientID != "" && s.noMutual[cs.RecipientID] {
		c.fail(errNoMutualGuilds)
		return
	}
	if cs.Private {
		c.fail(errMissingAccess) // a channel of users: the bot is not in it
		return
	}
	m, added, e := s.buildMessage(nil, f, c.files, false)
	if e != nil {
		c.fail(e)
		return
	}
	m.ChannelID, m.GuildID, m.AuthorID = cs.ID, cs.GuildID, s.bot.ID
	s.commitLocked(MessageCreated, m, added, "")
	c.emit(s.messageEventLocked(MessageCreated, m))
	c.json(200, s.wireLocked(m))
}

// channelMessageLocked returns a non-ephemeral, non-deleted message of a
// live channel.
func (s *Server) channelMessageLocked(chID, msgID string) (*channelState, *msgState, *apiErr) {
	cs, e := s.botChannelLockedOrErr(chID)
	if e != nil {
		return nil, nil, e
	}
	ms := s.msgs[msgID]
	if ms == nil || ms.cur.ChannelID != cs.ID || ms.cur.Deleted || ms.cur.Ephemeral() {
		return nil, nil, errUnknownMessage
	}
	return cs, ms, nil
}

func (s *Server) getChannelMessage(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ms, e := s.channelMessageLocked(c.p[0], c.p[1])
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, s.wireLocked(ms.cur))
}

func (s *Server) editChannelMessage(c *rctx) {
	f, e := c.fields()
	if e != nil {
		c.fail(e)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ms, e := s.channelMessageLocked(c.p[0], c.p[1])
	if e != nil {
		c.fail(e)
		return
	}
	if ms.cur.AuthorID != s.bot.ID {
		c.fail(errNotAuthor)
		return
	}
	if e := s.checkEditAttachments(c, ms.cur, f); e != nil {
		c.fail(e)
		return
	}
	m, added, e := s.buildMessage(ms.cur, f, c.files, false)
	if e != nil {
		c.fail(e)
		return
	}
	m.Flags &^= discordgo.MessageFlagsLoading
	s.commitLocked(MessageEdited, m, added, "")
	c.emit(s.messageEventLocked(MessageEdited, m))
	c.json(200, s.wireLocked(m))
}

func (s *Server) deleteChannelMessage(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ms, e := s.channelMessageLocked(c.p[0], c.p[1])
	if e != nil {
		c.fail(e)
		return
	}
	d := s.deleteLocked(ms)
	c.emit(s.messageEventLocked(MessageDeleted, d))
	c.noContent()
}

func (s *Server) typing(c *rctx) {
	s.mu.Lock()
	_, e := s.botChannelLockedOrErr(c.p[0])
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	c.noContent()
}

// --- application commands ---

// commandScope checks the application id and guild of a command route and
// returns the scope key ("" = global).
func (s *Server) commandScopeLocked(c *rctx) (string, *apiErr) {
	if c.p[0] != s.appID {
		return "", errUnknownApp
	}
	if strings.Contains(c.req.Path, "/guilds/") {
		if s.guilds[c.p[1]] == nil || s.withoutBotLocked(c.p[1]) {
			return "", errMissingAccess
		}
		return c.p[1], nil
	}
	return "", nil
}

func (s *Server) listCommands(c *rctx) {
	s.mu.Lock()
	scope, e := s.commandScopeLocked(c)
	out := cloneCommands(s.commands[scope])
	s.mu.Unlock()
	if e != nil {
		c.fail(e)
		return
	}
	if out == nil {
		out = []*discordgo.ApplicationCommand{}
	}
	c.json(200, out)
}

func (s *Server) prepareCommandLocked(cmd *discordgo.ApplicationCommand, scope, id string) *apiErr {
	if cmd == nil {
		return invalidForm("", "command is null")
	}
	if !s.cfg.noValidation {
		if e := validateCommand(cmd); e != nil {
			return e
		}
	}
	if cmd.Type == 0 {
		cmd.Type = discordgo.ChatApplicationCommand
	}
	cmd.ID = id
	if cmd.ID == "" {
		cmd.ID = s.newID()
	}
	cmd.ApplicationID = s.appID
	cmd.GuildID = scope
	cmd.Version = s.newID()
	if cmd.Options == nil {
		cmd.Options = []*discordgo.ApplicationCommandOption{}
	}
	return nil
}

func findCommand(list []*discordgo.ApplicationCommand, typ discordgo.ApplicationCommandType, name string) *discordgo.ApplicationCommand {
	if typ == 0 {
		typ = discordgo.ChatApplicationCommand
	}
	for _, c := range list {
		if c.Type == typ && c.Name == name {
			return c
		}
	}
	return nil
}

func (s *Server) overwriteCommands(c *rctx) {
	var cmds []*discordgo.ApplicationCommand
	if err := json.Unmarshal(c.req.Payload, &cmds); err != nil {
		c.fail(errBadJSON(err))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, e := s.commandScopeLocked(c)
	if e != nil {
		c.fail(e)
		return
	}
	if len(cmds) > 100 {
		c.fail(invalidForm("", "Must be 100 or fewer in length."))
		return
	}
	seen := map[string]bool{}
	for i, cmd := range cmds {
		id := ""
		if cmd != nil {
			key := fmt.Sprint(cmd.Type, "/", cmd.Name)
			if seen[key] {
				c.fail(invalidForm(fmt.Sprintf("%d.name", i), "Application command names must be unique ("+cmd.Name+")"))
				return
			}
			seen[key] = true
			if old := findCommand(s.commands[scope], cmd.Type, cmd.Name); old != nil {
				id = old.ID
			}
		}
		if e := s.prepareCommandLocked(cmd, scope, id); e != nil {
			c.fail(e)
			return
		}
	}
	s.commands[scope] = cmds
	s.notifyLocked()
	c.json(200, cloneCommands(cmds))
}

func (s *Server) createCommand(c *rctx) {
	var cmd *discordgo.ApplicationCommand
	if err := json.Unmarshal(c.req.Payload, &cmd); err != nil {
		c.fail(errBadJSON(err))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, e := s.commandScopeLocked(c)
	if e != nil {
		c.fail(e)
		return
	}
	status, id := 201, ""
	if cmd != nil {
		if old := findCommand(s.commands[scope], cmd.Type, cmd.Name); old != nil {
			status, id = 200, old.ID
		}
	}
	if e := s.prepareCommandLocked(cmd, scope, id); e != nil {
		c.fail(e)
		return
	}
	list := slices.DeleteFunc(slices.Clone(s.commands[scope]), func(x *discordgo.ApplicationCommand) bool { return x.ID == cmd.ID })
	s.commands[scope] = append(list, cmd)
	s.notifyLocked()
	c.json(status, cloneCommands([]*discordgo.ApplicationCommand{cmd})[0])
}

func (s *Server) commandIndexLocked(c *rctx) (string, int, *apiErr) {
	scope, e := s.commandScopeLocked(c)
	if e != nil {
		return "", 0, e
	}
	id := c.p[len(c.p)-1]
	for i, cmd := range s.commands[scope] {
		if cmd.ID == id {
			return scope, i, nil
		}
	}
	return "", 0, errUnknownCommand
}

func (s *Server) getCommand(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, i, e := s.commandIndexLocked(c)
	if e != nil {
		c.fail(e)
		return
	}
	c.json(200, cloneCommands(s.commands[scope][i : i+1])[0])
}

func (s *Server) editCommand(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, i, e := s.commandIndexLocked(c)
	if e != nil {
		c.fail(e)
		return
	}
	cmd := cloneCommands(s.commands[scope][i : i+1])[0]
	if err := json.Unmarshal(c.req.Payload, cmd); err != nil {
		c.fail(errBadJSON(err))
		return
	}
	if e := s.prepareCommandLocked(cmd, scope, s.commands[scope][i].ID); e != nil {
		c.fail(e)
		return
	}
	list := slices.Clone(s.commands[scope])
	list[i] = cmd
	s.commands[scope] = list
	s.notifyLocked()
	c.json(200, cloneCommands([]*discordgo.ApplicationCommand{cmd})[0])
}

func (s *Server) deleteCommand(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, i, e := s.commandIndexLocked(c)
	if e != nil {
		c.fail(e)
		return
	}
	s.commands[scope] = slices.Delete(slices.Clone(s.commands[scope]), i, i+1)
	s.notifyLocked()
	c.noContent()
}

// cloneCommands deep-copies commands through JSON.
func cloneCommands(in []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	if in == nil {
		return nil
	}
	b, _ := json.Marshal(in)
	var out []*discordgo.ApplicationCommand
	_ = json.Unmarshal(b, &out)
	return out
}
