package atomicfile

import (
	"fmt"
	"strings"
)

// A file an agent still holds open keeps receiving its writes after a
// rename replaced it: they go to the old inode, which no name reaches any
// more, and every line written after the rename is lost (the backup, taken
// before, lacks them too). Commands that replace an input (fix --in-place,
// repair) ask OpenWriters right before the rename and refuse when another
// process holds the file open for writing.

// Writer is another process that holds a file open for writing.
type Writer struct {
	PID     int
	Command string // its name, as the system gives it ("" when unknown)
}

func (w Writer) String() string {
	if w.Command == "" {
		return fmt.Sprintf("process %d", w.PID)
	}
	return fmt.Sprintf("process %d (%s)", w.PID, w.Command)
}

// WritersError is a file left as it was because other processes hold it
// open for writing.
type WritersError struct {
	Writers []Writer
}

func (e *WritersError) Error() string {
	names := make([]string, len(e.Writers))
	for i, w := range e.Writers {
		names[i] = w.String()
	}
	return fmt.Sprintf("open for writing by %s: its later writes would be lost with the file replaced; it was left as it is (stop the writer, or pass --ignore-writers)", strings.Join(names, ", "))
}

// RefuseWriters returns a *WritersError when another process holds path
// open for writing (see OpenWriters for what can be seen), else nil.
func RefuseWriters(path string) error {
	ws, err := OpenWriters(path)
	if err != nil || len(ws) == 0 {
		return nil // what cannot be looked at is not refused: see OpenWriters
	}
	return &WritersError{Writers: ws}
}
