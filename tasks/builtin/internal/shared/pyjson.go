package shared

import (
	"fmt"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// PyJSON renders v as Python's json.dumps does by default (", " and ": "
// separators, non-ASCII escaped as \uXXXX), for copy's content given as
// a list or a dict. Mapping keys are sorted: their YAML order is not kept
// in Args. A value of another type is written as Go prints it.
func PyJSON(v any) string {
	s, _ := pyfmt.JSON(v, pyfmt.JSONOptions{ASCII: true, Convert: func(v any) (any, error) { return fmt.Sprint(v), nil }})
	return s
}
