package pipeline

import (
	"context"
	"fmt"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/policy"
)

// Fix is what a job fixing records carries beside its Config: the cleanup
// packs, read where the pipeline is built so that they travel inside the
// job's serialized graph, as the check packs do. Config.Packs is unused
// when fixing; its other fields (format, tool calls, line bound, disabled
// rules, time limit) apply.
type Fix struct {
	// Stages are the packs as `chatlint fix` compiles them: each --pack
	// reference (with the packs it extends) on its own, run one after the
	// other on a document.
	Stages [][]*policy.Pack
	// ByFormat lists, per input format, the stages run on it, in order.
	ByFormat map[string][]int
	// MaxPasses bounds the passes over one document; 0 means
	// fix.DefaultMaxPasses.
	MaxPasses int
}

// LoadFix reads the cleanup packs as `chatlint fix` does: each source
// ("builtin:NAME", a folder, an OPA bundle) is a stage run on every format;
// without sources each format gets its default built-in cleanup packs. The
// staging is fix.CleanupPlan's; the packs are read here, so that their
// sources travel with the job.
func LoadFix(sources []string, maxPasses int) (*Fix, error) {
	plan := fix.CleanupPlan(sources)
	fx := &Fix{ByFormat: map[string][]int{}, MaxPasses: maxPasses}
	for _, ref := range plan.Refs {
		l := config.NewPackLoader()
		if err := l.Add(ref); err != nil {
			return nil, fmt.Errorf("--pack: %w", err)
		}
		fx.Stages = append(fx.Stages, withoutTests(l.Packs()))
	}
	for f, stages := range plan.ByFormat {
		fx.ByFormat[string(f)] = stages
	}
	return fx, nil
}

// plan is the staging the job carries, as fix.Stages compiles it on a
// worker; the stages' packs travel as sources (Stages), not references.
func (fx *Fix) plan() fix.Plan {
	p := fix.Plan{Refs: make([]string, len(fx.Stages)), ByFormat: map[document.Format][]int{}}
	for f, stages := range fx.ByFormat {
		p.ByFormat[document.Format(f)] = stages
	}
	return p
}

// compile compiles the stages in this worker process: each stage's engine
// once per process, shared by the DoFn instances (see Config.engine).
func (fx *Fix) compile(ctx context.Context, c Config) (*fix.Stages, error) {
	return fx.plan().Compile(func(i int, _ string) (*policy.Engine, error) {
		return fx.stage(c, i).engine(ctx)
	})
}

// stage is the Config compiling one stage: c's options with the stage's
// packs. Its engine is compiled once per worker process, like check's.
func (fx *Fix) stage(c Config, i int) Config {
	c.Packs = fx.Stages[i]
	return c
}

// Validate compiles every stage where the job is launched, so that a pack
// that does not compile is a usage error rather than a failure of every
// worker.
func (fx *Fix) Validate(ctx context.Context, c Config) error {
	if fx.MaxPasses < 0 {
		return fmt.Errorf("--max-passes: want at least 1")
	}
	for i := range fx.Stages {
		if err := fx.stage(c, i).Validate(ctx); err != nil {
			return err
		}
	}
	return nil
}
