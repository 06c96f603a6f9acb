package storage

// SetTestHookMidMove installs f to run inside every ApplyMove transaction
// between the state update and the action insert (nil removes it). For the
// crash test's child process only.
func SetTestHookMidMove(f func(gameID, seq int64)) { testHookMidMove = f }
