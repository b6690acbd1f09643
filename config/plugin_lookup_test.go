package config

import (
	"reflect"
	"testing"
)

// HasPlugin and PluginOptionDefault answer as PluginOptions' table does,
// prefixes dropped, for known and unknown plugins and options.
func TestPluginLookups(t *testing.T) {
	if !HasPlugin("connection", "ansible.builtin.ssh") || !HasPlugin("connection", "ssh") {
		t.Error("the ssh connection plugin is not found")
	}
	if HasPlugin("connection", "no-such-plugin") {
		t.Error("an unknown plugin is found")
	}
	opts, _ := PluginOptions("connection", "ssh")
	found := 0
	for _, o := range opts {
		d, ok := PluginOptionDefault("connection", "ansible.legacy.ssh", o.Name)
		if !ok || !reflect.DeepEqual(d, o.Default) {
			t.Errorf("%s: default %v %v, want %v", o.Name, d, ok, o.Default)
		}
		found++
	}
	if found == 0 {
		t.Fatal("the ssh plugin has no options")
	}
	if _, ok := PluginOptionDefault("connection", "ssh", "no_such_option"); ok {
		t.Error("an unknown option has a default")
	}
	if _, ok := PluginOptionDefault("connection", "no-such-plugin", "port"); ok {
		t.Error("an unknown plugin's option has a default")
	}
}
