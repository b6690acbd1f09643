package playbooks

import "go.yaml.in/yaml/v3"

// checkConds validates condition expressions (when, changed_when, …).
func (l *loader) checkConds(file, key string, n *yaml.Node, conds []string) {}

// checkTemplates validates the {{ }} templates of a task's strings.
func (l *loader) checkTemplates(file string, t *Task) {}
