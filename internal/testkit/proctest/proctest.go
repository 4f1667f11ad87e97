// Package proctest tells tests, on every OS, whether a process they
// started and stopped is gone.
package proctest
