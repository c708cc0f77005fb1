package astjson

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// opaInRange is OPA's own verdict, quadratic in the literal's length.
func opaInRange(lit string) bool {
	_, err := ast.NumberChecked(lit)
	return err == nil
}

// TestNumberInRangeAgreesWithOPA compares the shortened check with OPA's on
// literals long enough to be shortened, around both ends of the range.
func TestNumberInRangeAgreesWithOPA(t *testing.T) {
	ones := strings.Repeat("1", 3000)
	nines := strings.Repeat("9", 3000)
	zeros := strings.Repeat("0", 3000)
	var lits []string
	for _, e := range []string{"0", "1", "-1", "+27000", "26000", "27100", "-33000", "-30100", "-27000", "-36103", "-32000", "999999999", "-999999999", "1000000000000000"} {
		lits = append(lits,
			ones+"e"+e,
			"-"+nines+"e"+e,
			"0."+zeros+ones+"e"+e,
			ones+"."+ones+"E"+e,
			"0."+zeros+"e"+e,
			"1"+zeros+"e"+e,
			"3."+nines+"e"+e,
		)
	}
	for _, lit := range lits {
		if got, want := numberInRange(lit), opaInRange(lit); got != want {
			t.Errorf("numberInRange(%.20s…e%s) = %v, OPA says %v", lit, lit[strings.LastIndexAny(lit, "eE")+1:], got, want)
		}
	}
}

// TestShortenNumberBoundsWork: whatever the literal's length, OPA's quadratic
// check sees at most keptDigits digits and a short exponent.
func TestShortenNumberBoundsWork(t *testing.T) {
	for _, lit := range []string{
		strings.Repeat("7", 1<<20) + "e-1048000",
		"0." + strings.Repeat("0", 1<<20) + strings.Repeat("5", 1<<20) + "e1048576",
		"-" + strings.Repeat("1", 1<<20) + "." + strings.Repeat("2", 1<<20) + "e-000000000000000001048570",
	} {
		short, ok := shortenNumber(lit)
		if !ok {
			t.Fatalf("shortenNumber(%.20s…) refused an in-range number", lit)
		}
		if len(short) > keptDigits+32 {
			t.Errorf("shortenNumber(%.20s…) = %d bytes, want at most %d", lit, len(short), keptDigits+32)
		}
		if !numberInRange(lit) {
			t.Errorf("numberInRange(%.20s…) = false, want true", lit)
		}
	}
	if _, ok := shortenNumber("1" + strings.Repeat("0", 2000) + "e-9999999999999999"); ok {
		t.Error("an exponent of 16 digits was accepted")
	}
}

// TestDecodeLongNumberLinear decodes lines of multi-megabyte number literals,
// which took tens of seconds when OPA's check parsed each whole. The limit is
// generous (the fix takes milliseconds); a quadratic parse cannot meet it.
// The values are kept exact, as their text.
func TestDecodeLongNumberLinear(t *testing.T) {
	lit := strings.Repeat("1", 2<<20)
	inRange := `{"a":` + lit + `e-2097000,"c":` + lit + `}`
	outOfRange := `{"a":` + lit + `e-2097000,"b":` + lit + `e5}`
	start := time.Now()
	v, err := Decode([]byte(inRange))
	_, err2 := Decode([]byte(outOfRange))
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("Decode of two %d-byte lines took %v", len(inRange), took)
	}
	if err != nil {
		t.Fatalf("Decode(in range) = %v", err)
	}
	obj := v.(ast.Object)
	if got := obj.Get(ast.InternedTerm("a")).Value; got.Compare(ast.Number(lit+"e-2097000")) != 0 {
		t.Errorf("a = %.30s…, not the literal's exact text", got)
	}
	var re *RangeError
	if !errors.As(err2, &re) || re.Offset != len(`{"a":`+lit+`e-2097000,"b":`) {
		t.Fatalf("Decode(out of range) = %v, want a range error at \"b\"", err2)
	}
}

// FuzzNumberRange compares the shortened range check with OPA's on long
// literals built from a few digits, padding and an exponent.
func FuzzNumberRange(f *testing.F) {
	f.Add("1", uint16(1200), uint16(0), int64(0), false)
	f.Add("9", uint16(2000), uint16(3), int64(27000), true)
	f.Add("1", uint16(1100), uint16(900), int64(-30000), false)
	f.Add("0", uint16(5), uint16(1500), int64(1e15), false)
	f.Fuzz(func(t *testing.T, head string, intLen, fracLen uint16, exp int64, neg bool) {
		if head == "" || strings.Trim(head, "0123456789") != "" {
			return
		}
		var b strings.Builder
		if neg {
			b.WriteByte('-')
		}
		// An integer part that is "0" or starts with a non-zero digit.
		if head[0] == '0' || intLen == 0 {
			b.WriteByte('0')
		} else {
			for b.Len() < int(intLen%4000)+1 {
				b.WriteString(head)
			}
		}
		if fracLen > 0 {
			b.WriteByte('.')
			for i := 0; i < int(fracLen%4000)+1; i++ {
				b.WriteByte(head[i%len(head)])
			}
		}
		b.WriteString("e" + strconv.FormatInt(exp, 10))
		lit := b.String()
		if len(lit) <= longLiteral {
			return
		}
		if got, want := numberInRange(lit), opaInRange(lit); got != want {
			t.Fatalf("numberInRange(%s) = %v, OPA says %v", lit, got, want)
		}
	})
}
