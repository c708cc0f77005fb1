// Package browsertest opens a page in headless Chromium for a test, or
// skips the test, saying why, where no Chromium is installed.
package browsertest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chatlint/chatlint/internal/browser"
)

// Open starts Chromium, opens the local file path and closes the browser
// when the test ends. The browser gets at most timeout in all.
func Open(t *testing.T, path string, timeout time.Duration) *browser.Session {
	t.Helper()
	bin, err := browser.Find()
	if errors.Is(err, browser.ErrNotFound) {
		t.Skip("browser test skipped:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	s, err := browser.Start(ctx, bin, 1100, 900)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.Open(path); err != nil {
		t.Fatal(err)
	}
	return s
}

// Eval evaluates a JavaScript expression in the page, failing the test on
// error.
func Eval[T any](t *testing.T, s *browser.Session, expr string) T {
	t.Helper()
	v, err := browser.Eval[T](s, expr)
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// Clean fails the test when the page logged a problem or asked the network
// for anything.
func Clean(t *testing.T, s *browser.Session) {
	t.Helper()
	if p := s.Problems(); len(p) > 0 {
		t.Errorf("the page logged problems:\n%s", strings.Join(p, "\n"))
	}
	if r := s.Requests(); len(r) > 0 {
		t.Errorf("the page made network requests: %s", strings.Join(r, ", "))
	}
}
