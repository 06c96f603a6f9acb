// Package fakediscord is a fake Discord for end-to-end tests: an HTTP
// server on 127.0.0.1 that speaks enough of Discord's REST API (v10, and
// v9 under /api/v9) and gateway (websocket, JSON text frames) for a real
// *discordgo.Session
// (bwmarrin/discordgo v0.29) to connect to it, receive events and call the
// API, while the test plays the users and inspects what the bot did.
// Nothing reaches the network.
//
// # Connecting discordgo
//
// discordgo's endpoints are package variables pointing at discord.com
// (the bot package moves them to API v10); do not point them at the fake.
// Route the session's HTTP client through Transport, which sends every
// request to the fake whatever its host. Open then asks the fake for the
// gateway URL (GET /api/v10/gateway) and dials
// ws://127.0.0.1:PORT/gateway/?v=10&encoding=json:
//
//	srv := fakediscord.New(t,
//		fakediscord.WithGuild(fakediscord.Guild{ID: "g1", OwnerID: "u1",
//			Channels: []fakediscord.Channel{{ID: "c1", Name: "general"}},
//			Members:  []fakediscord.Member{{UserID: "u1", Username: "alice"}, {UserID: "u2"}}}))
//	dg, _ := discordgo.New("Bot test-token")
//	dg.Client = &http.Client{Transport: srv.Transport()}
//	dg.AddHandler(onInteraction)
//	require.NoError(t, dg.Open()) // HELLO, IDENTIFY, READY, GUILD_CREATE
//	t.Cleanup(func() { dg.Close() })
//
// # Playing the users
//
// SlashCommand, Autocomplete, Click, ClickLabel, Select, SubmitModal and
// ModalSubmit dispatch INTERACTION_CREATE (with member and permissions in a
// guild, user in a DM, fresh id and token, the message for components) and
// return an *Interaction handle:
//
//	ctx := testctx.Context(t) // the test's one bound for every wait
//	i := srv.SlashCommand("u1", "g1", "c1", "game", fakediscord.SubCmd("start", fakediscord.UserArg("opponent", "u2")))
//	resp, err := i.WaitResponse(ctx)      // initial callback (types 4..9)
//	board, err := i.WaitOriginal(ctx, nil) // @original once filled in
//	j := srv.ClickLabel("u2", board, "Accept")
//
// SlashCommandWhere makes a command through the user's own install of the
// app and/or in a private channel (Where: context 2, a group DM the bot is
// not in and cannot post to, 50001); the command must be available there
// by its registered integration_types and contexts, which registration
// validates as Discord does. A guild configured WithoutBot is a server
// that never invited the bot: only the user install reaches it, the
// gateway does not announce it and the REST API refuses it to the bot
// (50001).
//
// Say posts a plain user message (MESSAGE_CREATE); Dispatch sends any event.
// They wait for a session that got READY, as long as the test may
// (WithDispatchWait sets a shorter bound).
//
// # What the fake implements
//
// REST: GET /gateway, /gateway/bot, /users/@me, /users/{id},
// /users/@me/guilds, /applications/@me; POST /users/@me/channels (one
// stable DM channel per user); application commands (global and guild:
// bulk overwrite, create, get, list, edit, delete, with Discord's name and
// description rules); interaction callbacks, JSON or multipart, types 4 to
// 9 with Discord's rules (one callback per interaction, else 40060; which
// types fit which interaction); the interaction webhook (@original and
// follow-ups: get, edit, delete; the first follow-up after a deferred
// response replaces the "thinking..." message); channels (get, messages:
// list, create, get, edit, delete; typing) with JSON or multipart
// payload_json + files[n]; guilds, their channels, roles and members.
// Channels carry permission overwrites (Channel.Overwrites; SetOverwrites
// sends CHANNEL_UPDATE), and an interaction's member permissions are
// computed for its channel as Discord does (roles, then the channel's
// overwrites), so the client can compute what a member may do and see.
// Messages are checked against Discord's limits (2000 characters, embeds,
// five action rows of five buttons, unique custom ids, select options...)
// and rejected with 400 / 50035 like Discord, unless WithoutValidation.
// Edits follow Discord: absent fields are kept, null clears, "attachments"
// lists the attachments to keep and new files are added; from API v10 an
// edit that uploads must list every upload there too (by the index n of
// its files[n] part), else it is refused with 400 / 50035. Message.Notified
// records whom a new message pings (its user mentions as allowed_mentions
// permits); edits ping nobody. Any other route is
// answered 404 {"message":"fake discord: unknown route ...","code":0},
// listed by Unknown, and fails the test at cleanup unless
// AllowUnknownRoutes.
//
// API versions: every /api/vN path is served, and Request.APIVersion says
// which version a call named. WithAPIVersion pins one: other versions are
// refused (REST 400 / 50041, gateway closed with 4012) and fail the test
// at cleanup; the bot's end-to-end tests pin v10. WithRequestCheck runs a
// check on every API request (the bot's tests check each against
// Discord's own API description, internal/discordspec): a request it
// refuses is answered 400 / 50035 and fails the test at cleanup.
//
// Gateway: HELLO, IDENTIFY -> READY (unavailable guild stubs) then
// GUILD_CREATE per guild, heartbeats acknowledged, RESUME replays missed
// events then RESUMED (or INVALID_SESSION), REQUEST_GUILD_MEMBERS answered
// with one chunk, several concurrent connections, increasing sequence
// numbers per session. DisconnectAll and InvalidateSessions drop the
// connections.
//
// Sharding: a session that IDENTIFYs with "shard": [id, count] gets in
// READY and GUILD_CREATE only the guilds it owns by Discord's formula
// (guild_id >> 22) % count (ShardOf), and only their events:
// INTERACTION_CREATE, MESSAGE_*, CHANNEL_*, GUILD_* go to the sessions of
// the shard that owns the event's guild; DMs and events of no guild go to
// shard 0. A session without a shard (or [0, 1]) receives everything.
// An invalid shard is closed with 4010. GET /gateway/bot recommends
// WithShards shards. Simulated user actions wait (the dispatch wait) for
// the owning shard to be connected, so a click while its process restarts
// is delivered once it is back; WaitGuildReady waits for it, and
// GatewayStats.ReadyShards counts the connected shards. Guild ids that are
// not snowflakes (the "g1" of unsharded tests) belong to shard 0.
//
// # Recorders
//
// Every message version is kept (Message, MessageHistory, MessageEvents);
// Messages lists what everyone sees in a channel, DMs a user's DM channel,
// Ephemerals what only one user sees. Files keeps every upload with its
// bytes (Attachment.Image decodes PNGs). InteractionResponses and
// ResponseLatencies time dispatch -> first callback. Requests logs every
// REST call. WaitFor, WaitMessage (WaitMessageAfter a Cursor),
// WaitOriginal, WaitFollowup and WaitResponse wait for the event itself,
// until the context they are given ends: a test passes its one bound
// (internal/testctx), never a duration, so that a busy machine makes it
// slower, not red. Changed signals the next thing the fake records.
//
// Several fakes run at once in one process (each test its own): the fake
// has no package state, and the client is pointed at it per session.
//
// # Failures
//
// FailNext/Fail answer matching requests (Route patterns or any Matcher)
// with an error; RateLimit answers 429 with Discord's headers and body so
// that discordgo sleeps and retries; WithChannelRateLimits limits each
// channel's message creates and edits per window as Discord does, with
// its X-RateLimit-* headers (discordgo paces itself by them) and 429 past
// the limit; CloseDMs makes messages to a user fail with 403 / 50007,
// NoMutualGuilds with 403 / 50278 (no mutual guilds); DeleteChannel
// dispatches CHANNEL_DELETE and makes the
// channel 404 / 10003; WithInteractionDeadline enforces Discord's 3 second
// callback deadline.
//
// Not implemented: voice, reactions, pins, threads, webhooks other than
// interaction tokens, permission checks on REST calls, zlib-compressed
// gateway frames, Discord's identify rate limit (max_concurrency), and REST rate limits
// other than injected ones and the channel limits of WithChannelRateLimits
// (no global limit).
package fakediscord
