// Package loadtest holds the burst load test of the rfop binary (issue
// 30): the built binary runs as its own process, with its defaults (the
// SQLite file, the 200 MiB soft memory limit), against a fake Discord
// (internal/fakediscord) in the test process that limits each channel's
// writes as Discord does (5 per 5 seconds). 200 two-player games start at
// once; both players of every game click whatever the bot offers as soon
// as it answers (a "Waiting for…" answer is clicked again at the next
// news in the game, or after a second or two), and one resigns once the
// game reaches a number of moves. It reports the acknowledgement latency
// (p50, p99), the bot process's peak resident memory (VmHWM), the largest
// outbox backlog (undelivered publications), the time from each move's
// commit to its board in the channel (p50, p99, max), games stalled for a
// minute, and whether every game completed (its result posted). It takes
// minutes, so it runs only when asked:
//
//	RFOP_LOADTEST=1 go test -run TestBurst -v -timeout 60m ./internal/loadtest/
//
// Settings (environment): RFOP_LOADTEST_GAMES (200), RFOP_LOADTEST_MOVES
// (the version at which a player resigns, 60; 0 plays every game to its
// end), RFOP_LOADTEST_BIN (a binary to test instead of building this
// tree's, for a before/after comparison), RFOP_LOADTEST_PROFILES (a
// directory: heap profiles of the bot taken at its peaks, and a CPU
// profile of the burst's first seconds, for go tool pprof, and a dump of
// the bot's goroutines every 2.5 s of the first 30 s),
// RFOP_LOADTEST_CPU_SECONDS (how many first seconds that profile covers,
// 8), RFOP_LOADTEST_KEEP (a file: the bot's database is copied there
// after the run, to study its outbox and move log, and the bot's own log
// beside it, with ".log" added). docs/scaling.md gives the
// figures measured. The package has no code of its own.
package loadtest
