package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/internal/suggest"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/playbooks/expr/plugdoc"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/moddoc"
)

// docCommand is tender's ansible-doc: the modules tender runs, each with
// its description, parameters, examples and return values
// (tasks/builtin/moddoc), as text, a task snippet (-s) or JSON (-j); and
// with -t its filter, test and lookup plugins (playbooks/expr/plugdoc).
func docCommand() *cli.Command {
	return &cli.Command{
		Name:      "doc",
		Usage:     "show the documentation of the modules tender runs (as ansible-doc)",
		ArgsUsage: "MODULE...",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "list", Aliases: []string{"l"}, Usage: "list the modules with their summaries"},
			&cli.BoolFlag{Name: "snippet", Aliases: []string{"s"}, Usage: "show a task calling the module, each option commented"},
			&cli.BoolFlag{Name: "json", Aliases: []string{"j"}, Usage: "print the documentation as JSON (ansible-doc's shape)"},
			&cli.StringFlag{Name: "type", Aliases: []string{"t"}, Value: "module", Usage: "what to document: module, keyword, callback, filter, test or lookup"},
			&cli.BoolFlag{Name: "markdown", Usage: "every module's parameters as Markdown (docs/MODULES.md)"},
		},
		Action: func(c *cli.Context) error {
			kind := c.String("type")
			if kind != "module" && kind != "keyword" && kind != "callback" && !slices.Contains(plugdoc.Kinds, kind) {
				return usageError(c, fmt.Sprintf("tender doc documents modules, keywords, callbacks and filter, test and lookup plugins, not %s plugins (-t %s)", kind, kind))
			}
			if c.Bool("snippet") && (c.Bool("list") || c.Bool("json")) {
				return usageError(c, "-s does not go with -l or -j")
			}
			if kind != "module" && kind != "lookup" && c.Bool("snippet") {
				return usageError(c, "tender doc shows snippets for modules and lookup plugins only")
			}
			reg := moduleRegistry()
			w := c.App.Writer
			if kind == "keyword" {
				if c.NArg() == 0 && !c.Bool("list") {
					return usageError(c, "Missing name(s), incorrect options passed for detailed documentation; `tender doc -t keyword -l` lists the keywords")
				}
				return showKeywords(w, c.Args().Slice(), c.Bool("list"), c.Bool("json"))
			}
			if kind == "callback" {
				switch {
				case c.Bool("list"):
					return listCallbacks(w, c.Bool("json"))
				case c.NArg() == 0:
					return usageError(c, "Missing name(s), incorrect options passed for detailed documentation; `tender doc -t callback -l` lists the callbacks")
				}
				return showCallbacks(w, c.Args().Slice(), c.Bool("json"))
			}
			switch {
			case kind != "module" && c.Bool("list"):
				return listPlugins(w, kind, c.Bool("json"))
			case kind != "module" && c.NArg() > 0:
				return showPlugins(w, kind, c.Args().Slice(), c.Bool("json"), c.Bool("snippet"))
			case c.Bool("markdown"):
				return modulesMarkdown(w, reg)
			case c.Bool("list"):
				return listModules(w, reg, c.Bool("json"))
			case c.NArg() == 0:
				return usageError(c, "Missing name(s), incorrect options passed for detailed documentation; `tender doc -l` lists the modules")
			}
			var mods []moddoc.Module
			for _, name := range c.Args().Slice() {
				m, err := moduleDoc(reg, name)
				if err != nil {
					return err
				}
				mods = append(mods, m)
			}
			switch {
			case c.Bool("json"):
				out := map[string]any{}
				for i, m := range mods {
					out[c.Args().Get(i)] = moddoc.JSON(m)
				}
				return docJSON(w, out)
			case c.Bool("snippet"):
				for _, m := range mods {
					fmt.Fprintln(w, moddoc.Snippet(m))
				}
			default:
				for _, m := range mods {
					fmt.Fprint(w, moddoc.Text(m))
				}
			}
			return nil
		},
	}
}

// moduleDoc finds name in reg with its documentation.
func moduleDoc(reg *tasks.Registry, name string) (moddoc.Module, error) {
	s, err := moduleSpec(reg, name)
	if err != nil {
		return moddoc.Module{}, err
	}
	short := reg.Canonical(fqcn.Short(name))
	d, _ := reg.Def(short)
	doc, err := moddoc.For(short)
	if err != nil && slices.Contains(moddoc.Names(), short) {
		return moddoc.Module{}, err
	}
	if doc == nil {
		// A module registered outside tender (a library user's) has
		// only its parameters to show.
		doc = &moddoc.Doc{Short: "(no documentation)", Description: moddoc.Lines{"A module registered outside tender's own: only its parameters are known."}}
	}
	return moddoc.Module{Name: short, FQCN: moddoc.FQCN(short, d.Aliases), Spec: s, Doc: doc}, nil
}

// listModules prints each module's fully qualified name and summary, as
// ansible-doc -l does (with -j, as a JSON object).
func listModules(w io.Writer, reg *tasks.Registry, asJSON bool) error {
	sums := map[string]string{}
	for _, n := range sortedNames(reg) {
		d, _ := reg.Def(n)
		short := ""
		if doc, err := moddoc.For(n); err == nil {
			short = doc.Short
		}
		sums[moddoc.FQCN(n, d.Aliases)] = short
	}
	if asJSON {
		return docJSON(w, sums)
	}
	printSummaries(w, sums)
	return nil
}

// printSummaries prints each name and its summary in aligned columns,
// sorted by name, a summary cut to the line as ansible-doc cuts it.
func printSummaries(w io.Writer, sums map[string]string) {
	names := make([]string, 0, len(sums))
	width := 0
	for n := range sums {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	limit := moddoc.Width - width - 5
	for _, n := range names {
		desc := moddoc.Plain(sums[n])
		if len(desc) > limit {
			desc = desc[:limit] + "..."
		}
		fmt.Fprintf(w, "%-*s %s\n", width, n, desc)
	}
}

// docJSON writes v indented, as ansible-doc's JSON.
func docJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	return enc.Encode(v)
}

// moduleSpec finds name (with or without ansible.builtin.) in reg.
func moduleSpec(reg *tasks.Registry, name string) (*tasks.Spec, error) {
	short := fqcn.Short(name)
	f, ok := reg.Lookup(short)
	if !ok {
		best, dist := "", 3
		for _, n := range reg.Names() {
			if d := suggest.Distance(short, n); d < dist {
				best, dist = n, d
			}
		}
		if best != "" {
			return nil, fmt.Errorf("no module %q (did you mean %q?)", name, best)
		}
		return nil, fmt.Errorf("no module %q; `tender doc` lists them", name)
	}
	d, ok := f().(tasks.Described)
	if !ok {
		return nil, fmt.Errorf("module %q has no parameter list", name)
	}
	return d.Spec(), nil
}

// paramKind names p's type, with the elements' type of a list.
func paramKind(p tasks.Param) string {
	if p.Kind == tasks.List {
		return "list of " + p.Elements.String()
	}
	return p.Kind.String()
}

// modulesMarkdown writes docs/MODULES.md: every module with a table of
// its parameters.
func modulesMarkdown(w io.Writer, reg *tasks.Registry) error {
	names := sortedNames(reg)
	fmt.Fprintf(w, "# Modules\n\nThe %d modules tender runs, each with the parameters it accepts (any other is an\nerror naming the task, as in Ansible). Generated by `tender doc --markdown`;\n`go test ./cmd/tender/` fails when this file is out of date. Deliberate\ndifferences from Ansible's modules are in `tasks/builtin/DIFFERENCES.md`.\n\n", len(names))
	fmt.Fprintf(w, "The engine itself runs %s.\n", strings.Join(quoted(engineOnly()), ", "))
	for _, n := range names {
		s, err := moduleSpec(reg, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n## %s\n\n", n)
		if doc, err := moddoc.For(n); err == nil {
			fmt.Fprintf(w, "%s (`tender doc %s` shows its documentation.)\n\n", moddoc.Plain(doc.Short)+".", n)
		}
		if s.FreeForm {
			fmt.Fprintf(w, "Free form: the command line follows the module name.\n\n")
		}
		if s.Other != "" {
			fmt.Fprintf(w, "Also: %s.\n\n", s.Other)
		}
		fmt.Fprintf(w, "| parameter | type | required | default | choices | aliases |\n|---|---|---|---|---|---|\n")
		for _, p := range s.Params {
			if strings.HasPrefix(p.Name, "_") {
				continue
			}
			req, def := "", ""
			if p.Required {
				req = "yes"
			}
			if p.Default != nil {
				def = "`" + expr.Repr(p.Default) + "`"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", p.Name, paramKind(p), req, def,
				strings.Join(p.Choices, ", "), strings.Join(p.Aliases, ", "))
		}
		if len(s.Refused) > 0 {
			fmt.Fprintf(w, "\nRefused (Ansible's module takes them, tender does not):\n\n")
			refused := make([]string, 0, len(s.Refused))
			for o := range s.Refused {
				refused = append(refused, o)
			}
			sort.Strings(refused)
			for _, o := range refused {
				fmt.Fprintf(w, "- `%s`: %s\n", o, s.Refused[o])
			}
		}
	}
	return nil
}

// sortedNames lists reg's modules alphabetically.
func sortedNames(reg *tasks.Registry) []string {
	names := reg.Names()
	sort.Strings(names)
	return names
}

// engineOnly lists the actions the engine runs without a module (setup,
// meta, ...), besides the include and import keywords.
func engineOnly() []string {
	reg := moduleRegistry()
	var out []string
	for _, d := range tasks.EngineDefs() {
		if _, ok := reg.Lookup(d.Name); !ok {
			out = append(out, d.Name)
		}
	}
	return append(out, playbooks.LoaderActions()...)
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return out
}
