package inventory_test

import (
	"fmt"

	"github.com/tender-sh/tender/inventory"
)

// An inventory is read from Ansible's INI (or YAML) text, here with a
// host range and group vars; a pattern then selects hosts as
// ansible-playbook's host patterns do, and HostVars gives a host's
// variables after group and host precedence.
func Example() {
	inv := inventory.New()
	err := inv.ParseINI("hosts", []byte(`
[kvm]
kvm[01:03].example.com

[kvm:vars]
agent_port=7070

[canary]
kvm01.example.com agent_port=7071
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	hosts, err := inv.Hosts("kvm:!canary")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range hosts {
		fmt.Println(h.Name)
	}
	vars, _ := inv.HostVars("kvm01.example.com")
	fmt.Println("kvm01 port:", vars["agent_port"])
	// Output:
	// kvm02.example.com
	// kvm03.example.com
	// kvm01 port: 7071
}
