package expr_test

import (
	"fmt"

	"github.com/tender-sh/tender/playbooks/expr"
)

func Example() {
	vars := expr.NewVars(
		map[string]any{"pkgs": []any{"nginx", "curl"}, "port": 8000, "url": "http://{{ inventory_hostname }}:{{ port + 80 }}/"},
		map[string]any{"inventory_hostname": "web1", "ansible_distribution_version": "12.4"},
	)
	ok, _ := expr.Condition(`ansible_distribution_version >= "7"`, vars) // strings compare as strings
	fmt.Println(ok)
	ok, _ = expr.Condition(`ansible_distribution_version is version("7", ">=")`, vars)
	fmt.Println(ok)
	v, _ := expr.Render("{{ pkgs | map('upper') | list }}", vars) // one {{ }} keeps its type
	fmt.Printf("%#v\n", v)
	v, _ = expr.Render("{{ url }} serves {{ pkgs }}", vars) // variables render lazily
	fmt.Println(v)
	_, err := expr.Render("{{ nope }}", vars)
	fmt.Println(err)
	// Output:
	// false
	// true
	// []interface {}{"NGINX", "CURL"}
	// http://web1:8080/ serves ['nginx', 'curl']
	// 'nope' is undefined (col 4 of "{{ nope }}")
}
