// Package atspi makes a Fyne app's windows readable and operable by
// screen readers on Linux and the BSDs, through AT-SPI2 over D-Bus. Fyne
// 2.8 carries fyne.Accessible labels to VoiceOver and Narrator only; Orca
// and other AT-SPI clients see nothing of a Fyne window without this.
//
// It serves the tree Orca walks: the application, its windows, and in them
// the Fyne widgets a person reads or operates (labels, entries, check
// boxes, drop-downs, buttons, links, accordions) and any widget that
// embeds one, with the interfaces Accessible, Component, Action, Text,
// EditableText, Selection and Application, and the Cache the registry
// reads. A widget that holds others says so through Parent; one that is a
// form field names itself through Titled and Described.
//
// It stays off until the at-spi bus launcher says a screen reader or
// another assistive technology is on (org.a11y.Status), and goes off
// again when none is.
package atspi
