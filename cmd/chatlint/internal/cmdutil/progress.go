package cmdutil

import (
	"fmt"
	"io"
	"time"
)

// ShowProgress prints how far a run got on stderr every few hundred
// milliseconds, only when stderr is a terminal: in CI logs and pipes a
// progress line is noise. The returned func stops it and clears the line.
func ShowProgress(w io.Writer, read func() (records, bytes int64)) (stop func()) {
	if !IsTerminal(w) {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		start := time.Now()
		for {
			select {
			case <-done:
				fmt.Fprint(w, "\r\033[K")
				return
			case <-t.C:
				n, b := read()
				secs := time.Since(start).Seconds()
				fmt.Fprintf(w, "\r\033[Kchatlint: %d records, %.1f MB read (%.1f MB/s)", n, float64(b)/1e6, float64(b)/1e6/secs)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
