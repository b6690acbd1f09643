package files

import (
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// editStart is the decode step the text-editing modules (lineinfile,
// replace, ini_file) share: the arguments decoded with spec, the file
// attributes they ask for, then the module's own edit (decode). A bad
// argument ends the task: stop is its failed result, or err is set.
func editStart[E any](args tasks.Args, spec *tasks.Spec, decode func(tasks.Values) (E, *tasks.Result)) (
	a tasks.Values, fa shared.FileAttrs, e E, stop *tasks.Result, err error) {
	if a, err = spec.Decode(args); err != nil {
		return a, fa, e, nil, err
	}
	if fa, err = shared.AttrsOf(a, args); err != nil {
		r, _ := shared.FailWith(err.Error(), nil)
		return a, fa, e, &r, nil
	}
	e, stop = decode(a)
	return a, fa, e, stop, nil
}
