package pipeline

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// Registration lets a worker find every DoFn, function, element type and
// emitter by name, and use generated, reflection-free calls.
func init() {
	register.DoFn6x1[context.Context, fileio.ReadableFile, func(Unit), func(string), func(Tally), func(string, Fact), error](&ReadFn{})
	register.DoFn5x0[context.Context, Unit, func(string), func(Tally), func(string, Fact)](&CheckFn{})
	register.DoFn5x0[context.Context, string, func(*Fact) bool, func(string), func(Tally)](&DatasetFn{})
	register.DoFn6x0[context.Context, Unit, func(string), func(string), func(string), func(Tally)](&FixFn{})
	register.DoFn1x2[string, int, string](&ShardFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&WriteFn{})
	register.Function1x2(markShard)
	register.Combiner3[Summary, Tally, string](&SummaryFn{})

	register.Emitter1[Unit]()
	register.Emitter1[string]()
	register.Emitter1[Tally]()
	register.Emitter2[string, Fact]()
	register.Iter1[Fact]()
	register.Iter1[string]()

	beam.RegisterType(reflect.TypeOf((*Unit)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Tally)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Fact)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Summary)(nil)).Elem())
}
