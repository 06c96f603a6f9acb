package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Interaction is the handle of an interaction dispatched by a simulated
// user (SlashCommand, Click, ...). Its exported fields are fixed when it is
// created; the methods read what the bot did with it.
type Interaction struct {
	ID    string
	Token string
	AppID string
	Type  discordgo.InteractionType

	UserID    string
	GuildID   string // "" in DMs
	ChannelID string

	// Name is the command name (application commands, autocomplete).
	Name string
	// CustomID and Values of a component or modal interaction.
	CustomID string
	Values   []string
	// MessageID is the message the component is on (component
	// interactions, and modal submits that came from a component).
	MessageID string

	// Payload is the INTERACTION_CREATE "d" object sent to the bot.
	Payload json.RawMessage

	srv        *Server
	st         *ixState
	dispatched atomic.Int64 // unix nanos
}

// DispatchedAt is when the INTERACTION_CREATE was written to the gateway
// (zero if it was not dispatched).
func (i *Interaction) DispatchedAt() time.Time {
	n := i.dispatched.Load()
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// Err is non-nil if the interaction could not be dispatched (the reason
// was also reported with t.Errorf).
func (i *Interaction) Err() error {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	return i.st.err
}

// Response returns the initial response, or nil if none arrived yet.
func (i *Interaction) Response() *InteractionResponse {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	return i.st.resp
}

// WaitResponse waits for the initial response (callback) of the
// interaction, or until ctx ends.
func (i *Interaction) WaitResponse(ctx context.Context) (*InteractionResponse, error) {
	if err := i.Err(); err != nil {
		return nil, err
	}
	select {
	case <-i.st.respCh:
		return i.Response(), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("fakediscord: no response to %s (%v; errors: %v)", i, stopped(ctx), i.Errors())
	}
}

// Latency is the time from dispatch to the initial response (false if
// there is no response yet).
func (i *Interaction) Latency() (time.Duration, bool) {
	if r := i.Response(); r != nil {
		return r.Latency, true
	}
	return 0, false
}

// Original returns the current version of the @original message (created
// by a type 4/5 response, or the component's message for types 6/7), or
// nil if there is none (yet) or it was deleted.
func (i *Interaction) Original() *Message {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	if ms := i.srv.msgs[i.st.originalID]; ms != nil && !ms.cur.Deleted {
		return ms.cur
	}
	return nil
}

// Edited returns @original as this interaction's own token last edited
// it (PATCH /webhooks/{app}/{token}/messages/@original), or nil if it
// never did. After a deferred update (type 6) that is the bot's answer
// on the clicked message, which others (a publisher, other interactions)
// may edit too.
func (i *Interaction) Edited() *Message {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	return i.st.edited
}

// WaitOriginal waits until the @original message exists and match
// returns true for it, or until ctx ends. A nil match waits until it is no
// longer a deferred "thinking..." message.
func (i *Interaction) WaitOriginal(ctx context.Context, match func(*Message) bool) (*Message, error) {
	if match == nil {
		match = func(m *Message) bool { return !m.Loading() }
	}
	var got *Message
	if i.srv.WaitFor(ctx, func() bool {
		got = i.Original()
		return got != nil && match(got)
	}) {
		return got, nil
	}
	return nil, fmt.Errorf("fakediscord: @original of %s did not match (%v; now: %v; errors: %v)", i, stopped(ctx), got, i.Errors())
}

// Followups returns the current versions of the follow-up messages, in
// order (deleted ones excluded). After a deferred (type 5) response the
// first follow-up replaces the "thinking..." message, as on Discord: it is
// then both Original and the first follow-up.
func (i *Interaction) Followups() []*Message {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	var out []*Message
	for _, id := range i.st.followups {
		if m := i.srv.msgs[id].cur; !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

// WaitFollowup waits for a follow-up for which match (nil: any) is true,
// or until ctx ends.
func (i *Interaction) WaitFollowup(ctx context.Context, match func(*Message) bool) (*Message, error) {
	var got *Message
	if i.srv.WaitFor(ctx, func() bool {
		for _, m := range i.Followups() {
			if match == nil || match(m) {
				got = m
				return true
			}
		}
		return false
	}) {
		return got, nil
	}
	return nil, fmt.Errorf("fakediscord: no matching follow-up of %s (%v; errors: %v)", i, stopped(ctx), i.Errors())
}

// Messages returns the original (if any) and the follow-ups.
func (i *Interaction) Messages() []*Message {
	var out []*Message
	if o := i.Original(); o != nil {
		out = append(out, o)
	}
	for _, f := range i.Followups() {
		if len(out) == 0 || f.ID != out[0].ID {
			out = append(out, f)
		}
	}
	return out
}

// Errors lists the requests about this interaction that the fake refused
// (for example a second callback: "POST /interactions/..: 400 40060 ...").
func (i *Interaction) Errors() []string {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	return slices.Clone(i.st.errs)
}

func (i *Interaction) String() string {
	what := i.Name
	if what == "" {
		what = i.CustomID
	}
	return fmt.Sprintf("interaction %s (type %d %q by %s)", i.ID, i.Type, what, i.UserID)
}

// Arg is an option of a simulated application command.
type Arg struct {
	Name    string
	Type    discordgo.ApplicationCommandOptionType
	Value   any
	Options []Arg
	Focused bool
}

// Focus marks the argument as the one being typed (Autocomplete).
func (a Arg) Focus() Arg { a.Focused = true; return a }

// StrArg is a string option.
func StrArg(name, v string) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
}

// IntArg is an integer option.
func IntArg(name string, v int64) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: v}
}

// NumArg is a number option.
func NumArg(name string, v float64) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionNumber, Value: v}
}

// BoolArg is a boolean option.
func BoolArg(name string, v bool) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: v}
}

// UserArg is a user option (the user is added to data.resolved).
func UserArg(name, userID string) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: userID}
}

// ChannelArg is a channel option (added to data.resolved).
func ChannelArg(name, channelID string) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionChannel, Value: channelID}
}

// RoleArg is a role option (added to data.resolved).
func RoleArg(name, roleID string) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionRole, Value: roleID}
}

// SubCmd is a subcommand (type 1) with its options.
func SubCmd(name string, args ...Arg) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: args}
}

// SubCmdGroup is a subcommand group (type 2) holding subcommands.
func SubCmdGroup(name string, subs ...Arg) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionSubCommandGroup, Options: subs}
}

// ixSpec describes an interaction to dispatch.
type ixSpec struct {
	typ       discordgo.InteractionType
	userID    string
	guildID   string
	channelID string
	name      string
	customID  string
	values    []string
	msg       *Message // the message a component is on (the user's view)
	data      func(resolved map[string]any) map[string]any
	validate  func() error // under s.mu
	where     Where
}

// Where says how a simulated command reaches the bot: which install of
// the app authorises it and in which context it is made. The zero Where
// is the server's install, in a server channel or the bot's DM.
type Where struct {
	// UserInstall: the app is installed to the user's own account and
	// that install authorises the command (authorizing_integration_owners
	// "1": the user id); the command must list integration type 1.
	UserInstall bool
	// Private: made in a group DM or a DM between users (context 2), in
	// the channel given (created if new): the bot is not in it and cannot
	// post there, only answer the interaction. Needs UserInstall.
	Private bool
}

// SlashCommandWhere is SlashCommand made through an install and in a
// context (Where). The command must be available there: its contexts
// (when registered with contexts) must list the context, and its
// integration types the install, else the simulation fails the test as
// Discord would not offer it.
func (s *Server) SlashCommandWhere(userID, guildID, channelID string, w Where, name string, args ...Arg) *Interaction {
	return s.interact(s.commandSpec(discordgo.InteractionApplicationCommand, userID, guildID, channelID, name, args, w))
}

// SlashCommand simulates a user running a chat-input command in a guild
// channel (guildID != "") or in their DM with the bot (guildID == "";
// channelID may be "" then). Options are built with StrArg, IntArg, UserArg,
// SubCmd, .... If the bot registered the command, the options are checked
// against its declaration. Problems are reported with t.Errorf and give an
// Interaction whose Err is set.
func (s *Server) SlashCommand(userID, guildID, channelID, name string, args ...Arg) *Interaction {
	return s.command(discordgo.InteractionApplicationCommand, userID, guildID, channelID, name, args)
}

// Autocomplete simulates a user typing in an autocomplete option: mark it
// with Focus(), e.g. StrArg("card", "comm").Focus(). The bot must answer
// with an autocomplete result (type 8); see InteractionResponse.Choices.
func (s *Server) Autocomplete(userID, guildID, channelID, name string, args ...Arg) *Interaction {
	return s.command(discordgo.InteractionApplicationCommandAutocomplete, userID, guildID, channelID, name, args)
}

func (s *Server) command(typ discordgo.InteractionType, userID, guildID, channelID, name string, args []Arg) *Interaction {
	return s.interact(s.commandSpec(typ, userID, guildID, channelID, name, args, Where{}))
}

// commandSpec: w is set before validate is made, which checks it.
func (s *Server) commandSpec(typ discordgo.InteractionType, userID, guildID, channelID, name string, args []Arg, w Where) ixSpec {
	var cmd *discordgo.ApplicationCommand
	spec := ixSpec{typ: typ, userID: userID, guildID: guildID, channelID: channelID, name: name, where: w}
	spec.validate = func() error {
		if guildID != "" {
			cmd = findCommand(s.commands[guildID], discordgo.ChatApplicationCommand, name)
		}
		if cmd == nil {
			cmd = findCommand(s.commands[""], discordgo.ChatApplicationCommand, name)
		}
		if cmd == nil {
			if s.cfg.strictCommands {
				return fmt.Errorf("command /%s is not registered", name)
			}
		} else if err := checkArgs("/"+name, cmd.Options, args); err != nil {
			return err
		}
		if typ == discordgo.InteractionApplicationCommandAutocomplete && countFocused(args) != 1 {
			return fmt.Errorf("autocomplete of /%s needs exactly one argument marked with Focus()", name)
		}
		if cmd != nil {
			ctx, install := spec.where.context(guildID), discordgo.ApplicationIntegrationGuildInstall
			if spec.where.UserInstall {
				install = discordgo.ApplicationIntegrationUserInstall
			}
			if !installedAs(cmd, install) {
				return fmt.Errorf("command /%s is not available to integration type %d (its integration_types)", name, install)
			}
			if !availableIn(cmd, ctx) {
				return fmt.Errorf("command /%s is not available in context %d (its contexts)", name, ctx)
			}
		}
		if spec.where.Private && (!spec.where.UserInstall || guildID != "") {
			return fmt.Errorf("a command in a private channel needs the user install and no guild")
		}
		if s.withoutBotLocked(guildID) && !spec.where.UserInstall {
			return fmt.Errorf("the bot is not in guild %s: only a user install of the app reaches it (Where.UserInstall)", guildID)
		}
		return nil
	}
	spec.data = func(resolved map[string]any) map[string]any {
		d := map[string]any{"name": name, "type": int(discordgo.ChatApplicationCommand), "options": s.wireArgsLocked(args, guildID, resolved)}
		if cmd != nil {
			d["id"] = cmd.ID
			if cmd.GuildID != "" {
				d["guild_id"] = cmd.GuildID
			}
		} else {
			d["id"] = s.newID()
		}
		return d
	}
	return spec
}

// context is the interaction context of a command made in guildID.
func (w Where) context(guildID string) discordgo.InteractionContextType {
	switch {
	case w.Private:
		return discordgo.InteractionContextPrivateChannel
	case guildID != "":
		return discordgo.InteractionContextGuild
	}
	return discordgo.InteractionContextBotDM
}

func countFocused(args []Arg) int {
	n := 0
	for _, a := range args {
		if a.Focused {
			n++
		}
		n += countFocused(a.Options)
	}
	return n
}

// checkArgs checks simulated arguments against a command's declaration.
func checkArgs(path string, decl []*discordgo.ApplicationCommandOption, args []Arg) error {
	given := map[string]bool{}
	for _, a := range args {
		var d *discordgo.ApplicationCommandOption
		for _, o := range decl {
			if o.Name == a.Name {
				d = o
			}
		}
		if d == nil {
			names := make([]string, 0, len(decl))
			for _, o := range decl {
				names = append(names, o.Name)
			}
			return fmt.Errorf("%s has no option %q (declared: %s)", path, a.Name, strings.Join(names, ", "))
		}
		if d.Type != a.Type {
			return fmt.Errorf("%s option %q is declared as type %d, simulated as type %d", path, a.Name, d.Type, a.Type)
		}
		given[a.Name] = true
		switch a.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			if err := checkArgs(path+" "+a.Name, d.Options, a.Options); err != nil {
				return err
			}
		default:
			if len(d.Choices) > 0 && !a.Focused {
				ok := false
				for _, ch := range d.Choices {
					if fmt.Sprint(ch.Value) == fmt.Sprint(a.Value) {
						ok = true
					}
				}
				if !ok {
					return fmt.Errorf("%s option %q: %v is not one of its choices", path, a.Name, a.Value)
				}
			}
		}
	}
	subs := 0
	for _, o := range decl {
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			subs++
		default:
			if o.Required && !given[o.Name] {
				return fmt.Errorf("%s: required option %q is missing", path, o.Name)
			}
		}
	}
	if subs > 0 && len(args) != 1 {
		return fmt.Errorf("%s needs exactly one subcommand", path)
	}
	return nil
}

// wireArgsLocked renders options and fills data.resolved.
func (s *Server) wireArgsLocked(args []Arg, guildID string, resolved map[string]any) []map[string]any {
	out := []map[string]any{}
	add := func(kind, id string, v any) {
		m, _ := resolved[kind].(map[string]any)
		if m == nil {
			m = map[string]any{}
			resolved[kind] = m
		}
		m[id] = v
	}
	for _, a := range args {
		o := map[string]any{"name": a.Name, "type": int(a.Type)}
		switch a.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			o["options"] = s.wireArgsLocked(a.Options, guildID, resolved)
		default:
			o["value"] = a.Value
		}
		if a.Focused {
			o["focused"] = true
		}
		id, _ := a.Value.(string)
		switch a.Type {
		case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
			if _, ok := s.users[id]; ok || a.Type == discordgo.ApplicationCommandOptionUser {
				add("users", id, s.discordUserLocked(id))
				if gs := s.guilds[guildID]; gs != nil {
					if m := s.memberLocked(gs, id); m != nil {
						m.User = nil
						add("members", id, m)
					}
				}
			}
		case discordgo.ApplicationCommandOptionChannel:
			if cs := s.channels[id]; cs != nil {
				add("channels", id, map[string]any{"id": id, "name": cs.Name, "type": cs.Type, "permissions": strconv.FormatInt(discordgo.PermissionAll, 10)})
			}
		case discordgo.ApplicationCommandOptionRole:
			if gs := s.guilds[guildID]; gs != nil {
				for _, r := range s.rolesLocked(gs) {
					if r.ID == id {
						add("roles", id, r)
					}
				}
			}
		}
		out = append(out, o)
	}
	return out
}

// Click simulates a user clicking a button of a message. msg is the
// message as the user sees it (any recorded version); the button must be
// on it, enabled and not a link. The INTERACTION_CREATE carries the
// message's current version, as Discord's does.
func (s *Server) Click(userID string, msg *Message, customID string) *Interaction {
	spec := ixSpec{typ: discordgo.InteractionMessageComponent, userID: userID, msg: msg, customID: customID}
	var comp *Component
	spec.validate = func() error {
		if comp = msg.FindComponent(customID); comp == nil || comp.Type != discordgo.ButtonComponent {
			return fmt.Errorf("%s has no button with custom_id %q (buttons: %s)", msgRef(msg), customID, describeButtons(msg))
		}
		if comp.Disabled {
			return fmt.Errorf("button %q of %s is disabled", customID, msgRef(msg))
		}
		if discordgo.ButtonStyle(comp.Style) == discordgo.LinkButton {
			return fmt.Errorf("button %q of %s is a link button: clicking it sends no interaction", customID, msgRef(msg))
		}
		return nil
	}
	spec.data = func(map[string]any) map[string]any {
		return map[string]any{"custom_id": customID, "component_type": int(discordgo.ButtonComponent)}
	}
	return s.interact(spec)
}

// ClickLabel is Click on the button labelled label.
func (s *Server) ClickLabel(userID string, msg *Message, label string) *Interaction {
	id := label
	if msg != nil {
		if b := msg.Button(label); b != nil && b.CustomID != "" {
			id = b.CustomID
		}
	}
	return s.Click(userID, msg, id)
}

// Select simulates a user choosing values in a select menu of a message
// (string selects: option values; user/role/channel selects: ids). The
// number of values must fit min_values/max_values and, for string selects,
// be options of the menu.
func (s *Server) Select(userID string, msg *Message, customID string, values ...string) *Interaction {
	spec := ixSpec{typ: discordgo.InteractionMessageComponent, userID: userID, msg: msg, customID: customID, values: values}
	var comp *Component
	spec.validate = func() error {
		if comp = msg.FindComponent(customID); comp == nil || !comp.isSelect() {
			return fmt.Errorf("%s has no select menu with custom_id %q", msgRef(msg), customID)
		}
		if comp.Disabled {
			return fmt.Errorf("select menu %q of %s is disabled", customID, msgRef(msg))
		}
		minV, maxV := 1, comp.MaxValues
		if comp.MinValues != nil {
			minV = *comp.MinValues
		}
		if maxV == 0 {
			maxV = 1
		}
		if len(values) < minV || len(values) > maxV {
			return fmt.Errorf("select menu %q takes %d to %d values, got %d", customID, minV, maxV, len(values))
		}
		if comp.Type == discordgo.SelectMenuComponent {
			for _, v := range values {
				if !slices.ContainsFunc(comp.Options, func(o SelectOption) bool { return o.Value == v }) {
					return fmt.Errorf("select menu %q has no option %q", customID, v)
				}
			}
		}
		return nil
	}
	spec.data = func(resolved map[string]any) map[string]any {
		d := map[string]any{"custom_id": customID, "component_type": int(comp.Type), "values": values}
		if comp.Type == discordgo.UserSelectMenuComponent {
			users := map[string]any{}
			for _, v := range values {
				users[v] = s.discordUserLocked(v)
			}
			d["resolved"] = map[string]any{"users": users}
		}
		return d
	}
	return s.interact(spec)
}

// SubmitModal simulates the user filling in and submitting the modal that
// the bot answered `from` with (a type 9 response). values maps the text
// inputs' custom ids to what the user typed; required inputs must be given.
func (s *Server) SubmitModal(from *Interaction, values map[string]string) *Interaction {
	if from == nil {
		return s.failed(ixSpec{typ: discordgo.InteractionModalSubmit}, errors.New("SubmitModal: nil interaction"))
	}
	r := from.Response()
	if r == nil || r.Type != discordgo.InteractionResponseModal {
		return s.failed(ixSpec{typ: discordgo.InteractionModalSubmit, userID: from.UserID},
			fmt.Errorf("SubmitModal: %s was not answered with a modal", from))
	}
	var rows []any
	used := map[string]bool{}
	var missing []string
	input := func(c *Component) map[string]any {
		v, ok := values[c.CustomID]
		used[c.CustomID] = ok
		if !ok && (c.Required == nil || *c.Required) {
			missing = append(missing, c.CustomID)
		}
		return map[string]any{"type": int(discordgo.TextInputComponent), "custom_id": c.CustomID, "value": v}
	}
	for _, top := range r.Components {
		switch {
		case top.Type == discordgo.ActionsRowComponent:
			var inner []any
			for _, c := range top.Components {
				if c.Type == discordgo.TextInputComponent {
					inner = append(inner, input(c))
				}
			}
			rows = append(rows, map[string]any{"type": int(discordgo.ActionsRowComponent), "components": inner})
		case top.Component != nil && top.Component.Type == discordgo.TextInputComponent:
			rows = append(rows, map[string]any{"type": int(top.Type), "component": input(top.Component)})
		}
	}
	var unknown []string
	for k := range values {
		if !used[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	spec := ixSpec{typ: discordgo.InteractionModalSubmit, userID: from.UserID, guildID: from.GuildID,
		channelID: from.ChannelID, customID: r.CustomID}
	if from.MessageID != "" {
		spec.msg = &Message{ID: from.MessageID}
	}
	switch {
	case len(missing) > 0:
		return s.failed(spec, fmt.Errorf("SubmitModal %q: required inputs missing: %v", r.CustomID, missing))
	case len(unknown) > 0:
		return s.failed(spec, fmt.Errorf("SubmitModal %q has no inputs %v", r.CustomID, unknown))
	}
	spec.data = func(map[string]any) map[string]any {
		return map[string]any{"custom_id": r.CustomID, "components": rows}
	}
	return s.interact(spec)
}

// ModalSubmit simulates a modal submit without a preceding modal response
// (values become one text input per row, sorted by custom id).
func (s *Server) ModalSubmit(userID, guildID, channelID, customID string, values map[string]string) *Interaction {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rows := []any{}
	for _, k := range keys {
		rows = append(rows, map[string]any{"type": int(discordgo.ActionsRowComponent), "components": []any{
			map[string]any{"type": int(discordgo.TextInputComponent), "custom_id": k, "value": values[k]}}})
	}
	spec := ixSpec{typ: discordgo.InteractionModalSubmit, userID: userID, guildID: guildID, channelID: channelID, customID: customID}
	spec.data = func(map[string]any) map[string]any { return map[string]any{"custom_id": customID, "components": rows} }
	return s.interact(spec)
}

func msgRef(m *Message) string {
	if m == nil {
		return "<nil message>"
	}
	return "message " + m.ID
}

func describeButtons(m *Message) string {
	if m == nil {
		return "none"
	}
	var parts []string
	for _, b := range m.Buttons() {
		parts = append(parts, fmt.Sprintf("%q=%q", b.Label, b.CustomID))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// failed returns a handle for an interaction that was not dispatched.
func (s *Server) failed(spec ixSpec, err error) *Interaction {
	s.errorf("%v", err)
	h := &Interaction{srv: s, Type: spec.typ, UserID: spec.userID, GuildID: spec.guildID, ChannelID: spec.channelID,
		Name: spec.name, CustomID: spec.customID}
	h.st = &ixState{h: h, respCh: make(chan struct{}), err: err}
	return h
}

// interact resolves the context, registers and dispatches an interaction.
func (s *Server) interact(spec ixSpec) *Interaction {
	s.mu.Lock()
	h, payload, err := s.prepareLocked(&spec)
	if err != nil {
		s.mu.Unlock()
		return s.failed(spec, err)
	}
	st := &ixState{h: h, respCh: make(chan struct{})}
	h.st = st
	s.ixByID[h.ID] = st
	s.ixByToken[h.Token] = st
	s.ixOrder = append(s.ixOrder, st)
	s.notifyLocked()
	s.mu.Unlock()

	ctx, cancel := s.dispatchContext()
	defer cancel()
	if !s.gw.waitReady(ctx, h.GuildID) {
		return s.dispatchFailed(h, fmt.Errorf("%s: %w (%v)", h, ErrNoGatewaySession, stopped(ctx)))
	}
	if s.gw.broadcast("INTERACTION_CREATE", h.GuildID, payload, func(at time.Time) { h.dispatched.Store(at.UnixNano()) }) == 0 {
		return s.dispatchFailed(h, fmt.Errorf("%s: %w", h, ErrNoGatewaySession))
	}
	return h
}

func (s *Server) dispatchFailed(h *Interaction, err error) *Interaction {
	s.errorf("%v", err)
	s.mu.Lock()
	h.st.err = err
	s.notifyLocked()
	s.mu.Unlock()
	return h
}

// prepareLocked resolves user, guild, channel and message, and builds the
// INTERACTION_CREATE payload.
func (s *Server) prepareLocked(spec *ixSpec) (*Interaction, json.RawMessage, error) {
	if spec.userID == "" {
		return nil, nil, errors.New("interaction without a user id")
	}
	var cur *Message
	if spec.msg != nil {
		ms := s.msgs[spec.msg.ID]
		if ms == nil {
			return nil, nil, fmt.Errorf("%s is not a message the fake knows", msgRef(spec.msg))
		}
		if ms.cur.Deleted {
			return nil, nil, fmt.Errorf("%s was deleted", msgRef(spec.msg))
		}
		cur = ms.cur
		if cur.EphemeralTo != "" && cur.EphemeralTo != spec.userID {
			return nil, nil, fmt.Errorf("user %s cannot see %s: it is ephemeral to user %s", spec.userID, msgRef(cur), cur.EphemeralTo)
		}
		spec.guildID, spec.channelID = cur.GuildID, cur.ChannelID
	} else if spec.typ == discordgo.InteractionMessageComponent {
		return nil, nil, errors.New("component interaction without a message")
	}
	if spec.validate != nil {
		if err := spec.validate(); err != nil {
			return nil, nil, err
		}
	}
	user := s.userLocked(spec.userID)
	var gs *guildState
	var cs *channelState
	if spec.guildID != "" {
		if gs = s.guilds[spec.guildID]; gs == nil {
			return nil, nil, fmt.Errorf("unknown guild %s (add it with WithGuild or AddGuild)", spec.guildID)
		}
		if spec.channelID == "" {
			for _, id := range gs.channels {
				if c := s.channels[id]; !c.Deleted && c.Type == discordgo.ChannelTypeGuildText {
					spec.channelID = id
					break
				}
			}
			if spec.channelID == "" {
				return nil, nil, fmt.Errorf("guild %s has no text channel", spec.guildID)
			}
		}
		cs = s.channels[spec.channelID]
		if cs == nil {
			cs = s.addChannelLocked(gs, Channel{ID: spec.channelID})
		}
		if cs.GuildID != gs.cfg.ID {
			return nil, nil, fmt.Errorf("channel %s is not in guild %s", spec.channelID, spec.guildID)
		}
		if _, ok := gs.members[spec.userID]; !ok {
			s.addMemberLocked(gs, Member{UserID: spec.userID})
		}
	} else if spec.where.Private {
		cs = s.privateChannelLocked(spec.channelID)
		spec.channelID = cs.ID
	} else {
		dm := s.dmChannelLocked(spec.userID)
		if spec.channelID != "" && spec.channelID != dm.ID {
			if c := s.channels[spec.channelID]; c != nil && c.RecipientID != spec.userID {
				return nil, nil, fmt.Errorf("channel %s is not the DM channel of user %s (give the guild id for guild channels)", spec.channelID, spec.userID)
			}
		}
		cs = dm
		spec.channelID = dm.ID
	}
	if cs.Deleted {
		return nil, nil, fmt.Errorf("channel %s was deleted", cs.ID)
	}

	h := &Interaction{
		ID: s.newID(), Token: newToken(), AppID: s.appID, Type: spec.typ,
		UserID: spec.userID, GuildID: spec.guildID, ChannelID: cs.ID,
		Name: spec.name, CustomID: spec.customID, Values: spec.values, srv: s,
	}
	if spec.msg != nil {
		h.MessageID = spec.msg.ID
	}
	resolved := map[string]any{}
	data := spec.data(resolved)
	if len(resolved) > 0 {
		if _, ok := data["resolved"]; !ok {
			data["resolved"] = resolved
		}
	}
	locale := user.Locale
	if locale == "" {
		locale = string(discordgo.EnglishUS)
	}
	p := map[string]any{
		"id": h.ID, "application_id": s.appID, "type": int(spec.typ), "token": h.Token, "version": 1,
		"channel_id": cs.ID, "channel": map[string]any{"id": cs.ID, "type": cs.Type, "guild_id": cs.GuildID, "name": cs.Name},
		"locale": locale, "entitlements": []any{}, "data": data,
	}
	if gs != nil {
		botPerms := gs.cfg.BotPermissions
		if botPerms == 0 {
			botPerms = discordgo.PermissionAll
		}
		p["guild_id"] = gs.cfg.ID
		p["guild_locale"] = gs.cfg.preferredLocale()
		p["guild"] = map[string]any{"id": gs.cfg.ID, "locale": gs.cfg.preferredLocale(), "features": []string{}}
		mem := s.memberLocked(gs, spec.userID)
		if m := gs.members[spec.userID]; mem != nil && m != nil {
			mem.Permissions = s.channelPermissionsLocked(gs, cs, m)
		}
		p["member"] = mem
		p["app_permissions"] = strconv.FormatInt(botPerms, 10)
		p["context"] = int(discordgo.InteractionContextGuild)
		p["authorizing_integration_owners"] = map[string]string{"0": gs.cfg.ID}
		switch {
		case gs.cfg.WithoutBot:
			// Only the user's install: the app has no install here.
			p["authorizing_integration_owners"] = map[string]string{"1": spec.userID}
			p["app_permissions"] = strconv.FormatInt(everyonePermissions, 10)
		case spec.where.UserInstall:
			p["authorizing_integration_owners"] = map[string]string{"0": gs.cfg.ID, "1": spec.userID}
		}
	} else {
		p["user"] = s.discordUserLocked(spec.userID)
		p["app_permissions"] = strconv.FormatInt(everyonePermissions, 10)
		p["context"] = int(spec.where.context(""))
		p["authorizing_integration_owners"] = map[string]string{"0": "0"}
		if spec.where.UserInstall {
			p["authorizing_integration_owners"] = map[string]string{"1": spec.userID}
		}
	}
	if cur != nil {
		p["message"] = s.wireLocked(cur)
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, nil, err
	}
	h.Payload = raw
	return h, raw, nil
}

// Say simulates a user posting a plain message in a channel: it is
// recorded and MESSAGE_CREATE is dispatched.
func (s *Server) Say(userID, channelID, content string) (*Message, error) {
	s.mu.Lock()
	cs, e := s.channelLockedOrErr(channelID)
	if e != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: Say: unknown channel %s", channelID)
	}
	m := &Message{ID: s.newID(), ChannelID: cs.ID, GuildID: cs.GuildID, AuthorID: s.userLocked(userID).ID,
		Content: content, CreatedAt: time.Now().UTC()}
	s.commitLocked(MessageCreated, m, nil, "")
	w := s.wireLocked(m)
	var ev any = w
	if gs := s.guilds[cs.GuildID]; gs != nil {
		if _, ok := gs.members[userID]; !ok {
			s.addMemberLocked(gs, Member{UserID: userID})
		}
		mem := s.memberLocked(gs, userID)
		mem.User = nil
		ev = struct {
			*wireMessage
			Member *discordgo.Member `json:"member"`
		}{w, mem}
	}
	s.mu.Unlock()
	if err := s.Dispatch("MESSAGE_CREATE", ev); err != nil {
		return m, err
	}
	return m, nil
}
