package setup

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/engine/config"
)

// Settings are what a run takes from a config file or its flags besides
// the packs: a flag given wins, else the file's key, else the flag's
// default. Each field is named by its flag.
type Settings struct {
	FailOn       string // --fail-on, fail_on
	Format       string // --format, format
	ToolCalls    string // --tool-calls, tool_calls
	AllowNoTools bool   // --allow-no-tools, allow_no_tools
	Profile      string // --profile, profile
	MaxLineSize  string // --max-line-size, max_line_size (ParseSize reads it)
	// MaxRecordValues is --max-record-values, max_record_values
	// (ParseCount reads it).
	MaxRecordValues string
}

// FromConfig fills s from cfg's keys whose flag given reports was not given.
func (s *Settings) FromConfig(cfg *config.Config, given func(flag string) bool) {
	if cfg == nil {
		return
	}
	for _, k := range []struct {
		flag string
		val  string
		dst  *string
	}{
		{"fail-on", cfg.FailOn, &s.FailOn},
		{"format", cfg.Format, &s.Format},
		{"tool-calls", cfg.ToolCalls, &s.ToolCalls},
		{"profile", cfg.Profile, &s.Profile},
		{"max-line-size", cfg.MaxLineSize, &s.MaxLineSize},
		{"max-record-values", cfg.MaxRecordValues, &s.MaxRecordValues},
	} {
		if k.val != "" && !given(k.flag) {
			*k.dst = k.val
		}
	}
	if cfg.AllowNoTools && !given("allow-no-tools") {
		s.AllowNoTools = true
	}
}

// ParseSize reads a byte count: a number, optionally followed by KiB, MiB or
// GiB (or K, M, G, KB, MB, GB, taken as powers of 1024 too).
func ParseSize(s string) (int, error) {
	t := strings.TrimSpace(s)
	mult := 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("want a positive size such as 65536, 512KiB or 64MiB, not %q", s)
	}
	return n * mult, nil
}

// ParseCount reads a positive count, written with or without separators
// (1000000, 1_000_000 or 1,000,000).
func ParseCount(s string) (int, error) {
	t := strings.NewReplacer("_", "", ",", "").Replace(strings.TrimSpace(s))
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive count such as 1000000, not %q", s)
	}
	return n, nil
}
