package cmdutil

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/engine/policy"
)

// CheckActive refuses a run that could only pass: one without any active
// rule, or under a profile no pack knows (a misspelt profile would silently
// check as the default one).
func CheckActive(eng *policy.Engine, profile string) error {
	if len(eng.Rules()) == 0 {
		return UsageError("no rule is active: --no-builtin needs at least one --pack, and --disable must leave a rule on")
	}
	if err := eng.CheckProfile(profile); err != nil {
		return UsageError("--profile: %v", err)
	}
	return nil
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
