package cmdutil

import (
	"fmt"
	"io"
	"os"
	"time"
)

// ShowProgress prints how far a run got on stderr every few hundred
// milliseconds, only when stderr is a terminal: in CI logs and pipes a
// progress line is noise. The returned func stops it and clears the line.
func ShowProgress(w io.Writer, read func() (records, bytes int64)) (stop func()) {
	f, ok := w.(*os.File)
	if !ok {
		return func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
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
				fmt.Fprint(f, "\r\033[K")
				return
			case <-t.C:
				n, b := read()
				secs := time.Since(start).Seconds()
				fmt.Fprintf(f, "\r\033[Kchatlint: %d records, %.1f MB read (%.1f MB/s)", n, float64(b)/1e6, float64(b)/1e6/secs)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
