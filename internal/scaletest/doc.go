// Package scaletest measures the bot with many games stored (issue 23,
// docs/scaling.md): benchmarks on a database filled by rfop loadgen.
//
//	rfop loadgen --db /tmp/scale.db --games 10000            # 10,000 active + 10,000 finished
//	RFOP_SCALE_DB=/tmp/scale.db go test -run '^$' -bench . -benchtime 1x ./internal/scaletest/
//
// BenchmarkStartToReady runs the rfop binary (built from this tree, or
// RFOP_SCALE_BIN: for example an older build, to compare) as the bot on a
// copy of the database (a SQLite file is copied; a PostgreSQL database is
// used as it is) against a fake Discord, and reports the time from the
// process start to its "ready" log line, its peak resident memory (VmHWM)
// and its CPU while idle afterwards (from RFOP_SCALE_SETTLE, 15s, after
// ready, when the start's background work is done,
// for RFOP_SCALE_IDLE, 30s by default,
// with a reminder pass every second; RFOP_VERIFY_BUDGET is 0 unless set,
// so that the idle figure has no background integrity sweep in it).
//
// BenchmarkRemindPassIdle runs the reminder pass (Bot.Remind) in the
// test's process, with nothing due: its time and allocations per pass.
// BenchmarkRemindPass1000Due makes 1,000 active games' reminders due
// (their last move two days ago, in the copy) and times one pass that
// sends them all (text boards: no pictures; the fake Discord answers at
// once).
//
// The package has no code of its own.
package scaletest
