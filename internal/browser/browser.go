// Package browser opens a local page in headless Chromium (driven through
// the DevTools protocol by chromedp) and records what a person would not
// want to see: console errors, uncaught exceptions and network requests.
// The HTML report's browser test and its screenshot tool share it, so the
// screenshot in the docs is taken the way the test looks at the page.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ErrNotFound means no Chromium binary is installed.
var ErrNotFound = errors.New("no Chromium binary found (install it: apt-get install -y chromium; or set CHATLINT_CHROMIUM)")

// Find returns the path of a Chromium binary: $CHATLINT_CHROMIUM, else the
// first of the usual names on PATH.
func Find() (string, error) {
	if p := os.Getenv("CHATLINT_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// Session is one headless browser with one tab.
type Session struct {
	ctx     context.Context
	cancel  context.CancelFunc
	dataDir string

	mu       sync.Mutex
	page     string   // the URL opened; its own load is not a request of the page
	problems []string // console errors and warnings, exceptions, browser log errors
	requests []string // every other URL the page asked for
}

// Start launches Chromium with a fresh profile and a window of the given
// size. The flags keep it quiet on a machine without network: no sandbox
// (containers, root), no GPU, no QUIC, no first run, no background
// networking, component updates or sync.
func Start(ctx context.Context, binary string, width, height int) (*Session, error) {
	dir, err := os.MkdirTemp("", "chatlint-chromium-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(binary),
		chromedp.UserDataDir(dir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(width, height),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	tctx, tcancel := chromedp.NewContext(actx)
	s := &Session{ctx: tctx, dataDir: dir, cancel: func() { tcancel(); acancel() }}
	if err := chromedp.Listen(tctx, s.record); err != nil {
		s.Close()
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	if err := chromedp.Do(tctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		s.Close()
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	return s, nil
}

// record runs in the tab's event loop: it only appends.
func (s *Session) record(ev any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			msg := "console." + string(ev.Type) + ":"
			for _, a := range ev.Args {
				msg += " " + string(a.Value) + a.Description
			}
			s.problems = append(s.problems, msg)
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := "exception: " + d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		s.problems = append(s.problems, msg)
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			s.problems = append(s.problems, fmt.Sprintf("browser log (%s, %s): %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		if ev.Request.URL != s.page {
			s.requests = append(s.requests, ev.Request.URL)
		}
	}
}

// FileURL is the file:// URL of a local file.
func FileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

// Open loads a local file and waits for it to load.
func (s *Session) Open(path string) error {
	u, err := FileURL(path)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.page = u
	s.mu.Unlock()
	return chromedp.Do(s.ctx, chromedp.Navigate(u))
}

// Do runs actions in the tab.
func (s *Session) Do(actions ...chromedp.Action[chromedp.Void]) error {
	return chromedp.Do(s.ctx, actions...)
}

// Eval evaluates a JavaScript expression in the page and decodes its
// value into T.
func Eval[T any](s *Session, expr string) (T, error) {
	return chromedp.Run(s.ctx, chromedp.Evaluate[T](expr))
}

// Screenshot returns a PNG of the window, or of the whole page.
func (s *Session) Screenshot(full bool) ([]byte, error) {
	if full {
		return chromedp.Run(s.ctx, chromedp.FullScreenshot(100))
	}
	return chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
}

// Problems returns the console errors and warnings, uncaught exceptions and
// browser log errors seen so far.
func (s *Session) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Requests returns the URLs the page requested besides itself.
func (s *Session) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Close ends the browser and removes its profile.
func (s *Session) Close() {
	s.cancel()
	os.RemoveAll(s.dataDir)
}
