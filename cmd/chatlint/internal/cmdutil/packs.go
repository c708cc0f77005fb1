package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/setup"
)

// PackOptions are the flags every command that evaluates rules shares.
type PackOptions struct {
	Packs      []string // --pack REF, repeatable
	NoBuiltin  bool
	Disable    []string
	Timeout    time.Duration // per document
	ConfigPath string        // --config
	NoConfig   bool

	LoadedConfig *config.Config // nil when there is no config file
	// Notes, when set, is told which config file was read (stderr).
	Notes     io.Writer
	cfgLoaded bool
	// Cleanup loads the built-in cleanup packs too (kind: cleanup), which
	// only fix runs by default.
	Cleanup bool
	// disableChecked: the caller checks Disable against the rules of all
	// the engines it compiles (fix compiles one per pack).
	DisableChecked bool
}

func AddPackFlags(cmd *cobra.Command, o *PackOptions) {
	f := cmd.Flags()
	f.StringArrayVar(&o.Packs, "pack", nil, "add the rule pack `REF`: a folder, builtin:NAME or an OPA bundle .tar.gz (repeatable)")
	f.BoolVar(&o.NoBuiltin, "no-builtin", false, "do not load the built-in packs")
	AddDisableFlag(cmd, &o.Disable)
	f.StringVar(&o.ConfigPath, "config", "", "read the config `FILE` instead of the .chatlint.yaml found in the current folder or its nearest parent within the repository")
	f.BoolVar(&o.NoConfig, "no-config", false, "ignore .chatlint.yaml")
}

// AddTimeoutFlags adds the time limit of evaluation, for the commands that
// evaluate documents (check, and test's fixtures); rules evaluates nothing.
func AddTimeoutFlags(cmd *cobra.Command, o *PackOptions) {
	AddRuleTimeoutFlag(cmd, &o.Timeout, 0, "time limit for evaluating the rules on one conversation or session, per 1,000 of its messages or entries, tool calls and content parts counted (default 5s); past it the record gets a policy-error finding and the run goes on")
}

// AddDisableFlag adds --disable, for the commands that evaluate rules
// (fix, whose packs are not the check packs, adds it on its own).
func AddDisableFlag(cmd *cobra.Command, p *[]string) {
	cmd.Flags().StringArrayVar(p, "disable", nil, "turn a rule off by id (repeatable)")
}

// AddRuleTimeoutFlag adds --rule-timeout and its deprecated former name
// --record-timeout, with the command's default and help.
func AddRuleTimeoutFlag(cmd *cobra.Command, p *time.Duration, def time.Duration, usage string) {
	f := cmd.Flags()
	*p = def
	f.Var((*positiveDuration)(p), "rule-timeout", usage)
	f.Var((*positiveDuration)(p), "record-timeout", "deprecated: use --rule-timeout")
	_ = f.MarkDeprecated("record-timeout", "use --rule-timeout")
}

// positiveDuration is a duration flag that refuses 0 and negative values:
// "--rule-timeout 0s" used to mean the default and "-1s" no limit, silently.
// There is no unlimited setting; a long limit (1h) is what a user who wants
// none asks for.
type positiveDuration time.Duration

// String is "" when unset, so that help shows no "(default 0s)".
func (d *positiveDuration) String() string {
	if *d == 0 {
		return ""
	}
	return time.Duration(*d).String()
}
func (d *positiveDuration) Type() string { return "duration" }

func (d *positiveDuration) Set(s string) error {
	v, err := setup.ParseRuleTimeout(s)
	if err != nil {
		return err
	}
	*d = positiveDuration(v)
	return nil
}

// Config returns the config file's content, reading it on first use
// (setup.LoadConfig: the --config file, else .chatlint.yaml in the current
// folder or the nearest parent). nil means there is none.
func (o *PackOptions) Config() (*config.Config, error) {
	if o.cfgLoaded {
		return o.LoadedConfig, nil
	}
	o.cfgLoaded = true
	cfg, path, err := setup.LoadConfig(o.ConfigPath, o.NoConfig)
	if err != nil {
		return nil, &ExitCode{Code: ExitError, Err: fmt.Errorf("config: %w", err)}
	}
	if o.Notes != nil && cfg != nil {
		// A config changes what a run reports and where it writes: say
		// which one this run obeys, every time.
		fmt.Fprintf(o.Notes, "chatlint: config: %s\n", report.EscapeControls(path))
	}
	o.LoadedConfig = cfg
	return cfg, nil
}

// Compile loads the packs and compiles them into one engine, then checks
// that every rule the config names exists.
func (o *PackOptions) Compile(ctx context.Context) (*policy.Engine, error) {
	packs, err := o.load()
	if err != nil {
		return nil, err
	}
	return o.CompilePacks(ctx, packs)
}

// CompilePacks compiles loaded packs as compile does.
func (o *PackOptions) CompilePacks(ctx context.Context, packs []*policy.Pack) (*policy.Engine, error) {
	cfg, err := o.Config()
	if err != nil {
		return nil, err
	}
	eng, err := setup.Engine(ctx, packs, cfg, o.Disable, o.Timeout)
	var bad *setup.ConfigError
	if errors.As(err, &bad) {
		return nil, &ExitCode{Code: ExitError, Err: bad}
	}
	if err != nil {
		return nil, CompileFailure(err)
	}
	all := append(eng.AllRules(), lint.CoreRules...)
	known := map[string]bool{}
	for _, r := range all {
		known[r.ID] = true
	}
	if !o.DisableChecked {
		if err := CheckDisable(o.Disable, known, all); err != nil {
			return nil, err
		}
	}
	return eng, nil
}

// load reads the packs without compiling them: the config's packs (or, when
// it names none, the built-in ones) and then every --pack.
func (o *PackOptions) load() ([]*policy.Pack, error) {
	l, err := o.Loader()
	if err != nil {
		return nil, err
	}
	return l.Packs(), nil
}

// Loader loads the packs as load does (setup.Packs) and keeps where each
// came from.
func (o *PackOptions) Loader() (*config.PackLoader, error) {
	cfg, err := o.Config()
	if err != nil {
		return nil, err
	}
	l, err := setup.Packs(cfg, o.Packs, o.NoBuiltin)
	if err != nil {
		return nil, &ExitCode{Code: ExitError, Err: err}
	}
	return l, nil
}

// CompileFailure words a pack compile error for users (exit 2); other
// errors pass through.
func CompileFailure(err error) error {
	var ce *policy.CompileError
	if errors.As(err, &ce) {
		return &ExitCode{Code: ExitError, Err: fmt.Errorf("policies do not compile:\n%s", explainCompileErrors(ce.Error()))}
	}
	return err
}

var undefinedFunction = regexp.MustCompile(`undefined function ([a-z0-9_.]+)`)

// explainCompileErrors says why a builtin a pack calls is missing when it is
// one packs may not use, rather than leaving "undefined function http.send".
func explainCompileErrors(msg string) string {
	return undefinedFunction.ReplaceAllStringFunc(msg, func(m string) string {
		name := undefinedFunction.FindStringSubmatch(m)[1]
		if sandboxed(name) {
			return fmt.Sprintf("%s is not allowed in rule packs: packs are sandboxed and may not reach the network, the environment, files, the clock or randomness", name)
		}
		return m
	})
}

// sandboxed reports whether name is an OPA builtin that packs are denied.
func sandboxed(name string) bool {
	has := func(caps *ast.Capabilities) bool {
		return slices.ContainsFunc(caps.Builtins, func(b *ast.Builtin) bool { return b.Name == name })
	}
	return has(ast.CapabilitiesForThisVersion()) && !has(builtins.Capabilities())
}
