package main

import (
	"strconv"
	"time"

	"github.com/chatlint/chatlint/engine/setup"
)

// ruleTimeout is --rule-timeout as check reads it (setup.ParseRuleTimeout):
// 0 and negative durations are usage errors, not "the default" or "no
// limit".
type ruleTimeout time.Duration

func (d *ruleTimeout) String() string {
	if d == nil {
		return ""
	}
	return time.Duration(*d).String()
}

func (d *ruleTimeout) Set(s string) error {
	v, err := setup.ParseRuleTimeout(s)
	if err != nil {
		return err
	}
	*d = ruleTimeout(v)
	return nil
}

// lineSize is --max-line-size as check reads it (setup.ParseSize): bytes,
// or a number with KiB, MiB or GiB; 0 and negative sizes are usage errors.
type lineSize int

func (n *lineSize) String() string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(int(*n))
}

func (n *lineSize) Set(s string) error {
	v, err := setup.ParseSize(s)
	if err != nil {
		return err
	}
	*n = lineSize(v)
	return nil
}
