// Command report-screenshot takes a PNG of an HTML report in headless
// Chromium, the way the report's browser test opens it (internal/browser):
// scripts/screenshot runs it on the shipped sample for the docs. It fails
// when the page logs an error or asks for anything on the network, so a
// screenshot is never taken of a broken page.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chatlint/chatlint/internal/browser"
)

func main() {
	out := flag.String("o", "report.png", "PNG file to write")
	width := flag.Int("width", 1100, "window width in CSS pixels")
	height := flag.Int("height", 900, "window height in CSS pixels")
	full := flag.Bool("full", false, "take the whole page, not only the window")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: report-screenshot [-o FILE.png] [-width N] [-height N] [-full] REPORT.html")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out, *width, *height, *full); err != nil {
		fmt.Fprintln(os.Stderr, "report-screenshot:", err)
		os.Exit(1)
	}
}

func run(page, out string, width, height int, full bool) error {
	bin, err := browser.Find()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := browser.Start(ctx, bin, width, height)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Open(page); err != nil {
		return err
	}
	png, err := s.Screenshot(full)
	if err != nil {
		return err
	}
	if p := s.Problems(); len(p) > 0 {
		return fmt.Errorf("the page logged problems:\n%s", strings.Join(p, "\n"))
	}
	if r := s.Requests(); len(r) > 0 {
		return fmt.Errorf("the page requested %s", strings.Join(r, ", "))
	}
	return os.WriteFile(out, png, 0o644)
}
