//go:build !race

package app

// raceEnabled says the race detector is on: heavy tests do less.
const raceEnabled = false
