// Package shardtest holds the end-to-end test of gateway sharding across
// processes (issue 17): the rfop binary is built and run as two bot
// processes, shards 0 and 1 of 2, on one database, against a fake Discord
// (internal/fakediscord) in the test; the test plays 100 games over 20
// servers and some solo games in DMs by clicking through random legal
// choices, kills one process with SIGKILL in the middle and starts it
// again, and then checks that every game finished, that the action log
// holds exactly the moves the clicks made (none lost, none applied
// twice), that every publication was posted once and that no reminder
// was sent twice. The package has no code of its own.
package shardtest
