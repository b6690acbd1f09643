package builtin

import "github.com/tender-sh/tender/tasks"

// Each built-in module shows the Spec it decodes its arguments with, for
// `tender doc` and docs/MODULES.md.

func (m *commandModule) Spec() *tasks.Spec {
	if m.shell {
		return shellArgs
	}
	return commandArgs
}
func (rawModule) Spec() *tasks.Spec           { return rawArgs }
func (scriptModule) Spec() *tasks.Spec        { return scriptArgs }
func (copyModule) Spec() *tasks.Spec          { return copyArgs }
func (fileModule) Spec() *tasks.Spec          { return fileArgs }
func (statModule) Spec() *tasks.Spec          { return statArgs }
func (debugModule) Spec() *tasks.Spec         { return debugArgs }
func (failModule) Spec() *tasks.Spec          { return failArgs }
func (assertModule) Spec() *tasks.Spec        { return assertArgs }
func (pingModule) Spec() *tasks.Spec          { return pingArgs }
func (waitForModule) Spec() *tasks.Spec       { return waitForArgs }
func (userModule) Spec() *tasks.Spec          { return userArgs }
func (groupModule) Spec() *tasks.Spec         { return groupArgs }
func (authorizedKeyModule) Spec() *tasks.Spec { return authorizedKeyArgs }
func (cronModule) Spec() *tasks.Spec          { return cronArgs }
func (knownHostsModule) Spec() *tasks.Spec    { return knownHostsArgs }
func (getentModule) Spec() *tasks.Spec        { return getentArgs }
func (hostnameModule) Spec() *tasks.Spec      { return hostnameArgs }
func (sysctlModule) Spec() *tasks.Spec        { return sysctlArgs }
func (modprobeModule) Spec() *tasks.Spec      { return modprobeArgs }
func (debconfModule) Spec() *tasks.Spec       { return debconfArgs }
func (selinuxModule) Spec() *tasks.Spec       { return selinuxArgs }
func (includeVarsModule) Spec() *tasks.Spec   { return includeVarsArgs }
func (pauseModule) Spec() *tasks.Spec         { return pauseArgs }
func (lineinfileModule) Spec() *tasks.Spec    { return lineinfileArgs }
func (slurpModule) Spec() *tasks.Spec         { return slurpArgs }
func (replaceModule) Spec() *tasks.Spec       { return replaceArgs }
func (blockinfileModule) Spec() *tasks.Spec   { return blockinfileArgs }
func (iniFileModule) Spec() *tasks.Spec       { return iniFileArgs }
func (templateModule) Spec() *tasks.Spec      { return templateArgs }
func (tempfileModule) Spec() *tasks.Spec      { return tempfileArgs }
func (findModule) Spec() *tasks.Spec          { return findArgs }
func (aptModule) Spec() *tasks.Spec           { return aptArgs }
func (serviceModule) Spec() *tasks.Spec       { return serviceArgs }
func (systemdModule) Spec() *tasks.Spec       { return systemdArgs }
func (packageModule) Spec() *tasks.Spec       { return packageSpec }
func (m rpmModule) Spec() *tasks.Spec         { return rpmSpecs[m.tool] }
func (assembleModule) Spec() *tasks.Spec      { return assembleArgs }
func (fetchModule) Spec() *tasks.Spec         { return fetchArgs }
func (pipModule) Spec() *tasks.Spec           { return pipArgs }
func (getURLModule) Spec() *tasks.Spec        { return getURLArgs }
func (uriModule) Spec() *tasks.Spec           { return uriArgs }
func (unarchiveModule) Spec() *tasks.Spec     { return unarchiveArgs }
func (setFactModule) Spec() *tasks.Spec       { return setFactSpec }
func (addHostModule) Spec() *tasks.Spec       { return addHostSpec }
func (groupByModule) Spec() *tasks.Spec       { return groupBySpec }
func (setStatsModule) Spec() *tasks.Spec      { return setStatsSpec }

// packageSpec documents package: its own parameters, the rest going to
// the package manager's module.
var packageSpec = &tasks.Spec{Module: "package", Params: packageArgs.Params,
	Other: "any other parameter of the package manager's module (apt, dnf, yum), passed on to it"}

// The modules below read their arguments by hand (any key is a variable);
// these Specs document them.
var (
	setFactSpec = &tasks.Spec{Module: "set_fact", Params: []tasks.Param{{Name: "cacheable", Kind: tasks.Bool, Default: false}},
		Other: "every other key is a fact to set on the host"}
	addHostSpec = &tasks.Spec{Module: "add_host", Params: []tasks.Param{
		{Name: "name", Aliases: []string{"host", "hostname"}, Required: true},
		{Name: "groups", Kind: tasks.List, Aliases: []string{"group", "groupname"}},
	}, Other: "every other key is a variable of the new host (ansible_host, ansible_port, ...)"}
	groupBySpec = &tasks.Spec{Module: "group_by", Params: []tasks.Param{
		{Name: "key", Required: true},
		{Name: "parents", Kind: tasks.List, Default: []any{"all"}},
	}}
	setStatsSpec = &tasks.Spec{Module: "set_stats", Params: []tasks.Param{
		{Name: "data", Kind: tasks.Dict, Required: true},
		{Name: "per_host", Kind: tasks.Bool, Default: false},
		{Name: "aggregate", Kind: tasks.Bool, Default: true},
	}}
)

// librarySpec documents the runner of modules that ship with the content:
// a task names the module itself, with the module's own parameters.
var librarySpec = &tasks.Spec{Module: "library",
	Other: "not a module to name in a task: a task naming a module found in library/ beside the playbook or in a role, or on the module path, runs it on the host with that module's own parameters, by Ansible's module protocol; an embedder's Restrict allows those only when it names library"}

func (libraryModule) Spec() *tasks.Spec { return librarySpec }
