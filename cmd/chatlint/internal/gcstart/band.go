package gcstart

import "sync/atomic"

// SessionBand says the command is a check under the default profile, which
// takes the sessions' band of the memory limit (cmd/chatlint/gc.go): set by
// the command before it reads its inputs, read after each collection.
var SessionBand atomic.Bool
