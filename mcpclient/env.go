package mcpclient

import (
	"os"
	"runtime"
	"sort"
	"strings"
)

// inheritedEnv lists the variables a stdio server inherits from this
// process unless NoDefaultEnv is set: the MCP SDKs' getDefaultEnvironment
// list ("inspired by the default env inheritance of sudo").
func inheritedEnv() []string {
	if runtime.GOOS == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
			"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// childEnv is the environment of a stdio server: the inherited defaults
// (values starting with "()", shell functions, are skipped) overlaid with
// the configured variables, sorted by name.
func childEnv(configured map[string]string, noDefault bool) []string {
	env := map[string]string{}
	if !noDefault {
		for _, k := range inheritedEnv() {
			v, ok := os.LookupEnv(k)
			if !ok || strings.HasPrefix(v, "()") {
				continue
			}
			env[k] = v
		}
	}
	for k, v := range configured {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
