package yamlrule

import "regexp/syntax"

// A name pattern (`^[a-zA-Z0-9_-]{1,64}$`, the finetune gate's on every tool
// and call) is tested on every element of every record, and Go's regexp
// engine steps through its program for what a bitmap and a length say:
// every byte is one of the class's, and there are between min and max of
// them. matchRun recognizes such a pattern, a run of one ASCII
// class anchored at both ends, optional as a whole or not; every other
// pattern goes to the regexp engine. TestMatchRunAgreesWithRegexp and
// FuzzMatchRun hold the two to the same answers.

// asciiRun is a compiled run pattern: the class's bytes, the bounds of the
// run's length (max -1: none), and whether the empty string matches too.
type asciiRun struct {
	class    [128]bool
	min, max int
	optional bool
}

func (r *asciiRun) match(s string) bool {
	if s == "" {
		return r.optional || r.min == 0
	}
	if len(s) < r.min || r.max >= 0 && len(s) > r.max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if b := s[i]; b >= 128 || !r.class[b] {
			return false
		}
	}
	return true
}

// matchRun returns the matcher of pattern when it is a run of one ASCII
// class anchored at the start and end of the text (^, \A; $, \z), else
// false.
func matchRun(pattern string) (func(string) bool, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) != 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[2].Op != syntax.OpEndText {
		return nil, false
	}
	r := &asciiRun{}
	body := re.Sub[1]
	if body.Op == syntax.OpQuest {
		r.optional = true
		body = body.Sub[0]
	}
	for body.Op == syntax.OpCapture {
		body = body.Sub[0]
	}
	switch body.Op {
	case syntax.OpRepeat:
		r.min, r.max = body.Min, body.Max
	case syntax.OpPlus:
		r.min, r.max = 1, -1
	case syntax.OpStar:
		r.min, r.max = 0, -1
	default:
		return nil, false
	}
	if body.Op == syntax.OpRepeat && body.Flags&syntax.NonGreedy != 0 {
		return nil, false // the same strings match, but keep to the plain form
	}
	class := body.Sub[0]
	if class.Op == syntax.OpLiteral && len(class.Rune) == 1 && class.Flags&syntax.FoldCase == 0 {
		class = &syntax.Regexp{Op: syntax.OpCharClass, Rune: []rune{class.Rune[0], class.Rune[0]}}
	}
	if class.Op != syntax.OpCharClass || len(class.Rune) == 0 {
		return nil, false
	}
	for i := 0; i+1 < len(class.Rune); i += 2 {
		lo, hi := class.Rune[i], class.Rune[i+1]
		if hi >= 128 {
			return nil, false
		}
		for c := lo; c <= hi; c++ {
			r.class[c] = true
		}
	}
	return r.match, true
}
