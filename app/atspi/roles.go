package atspi

// Role is an AT-SPI role (AtspiRole): what kind of thing a node is, which
// decides how a screen reader speaks it and which keys reach it.
type Role uint32

// The roles the adapter gives, numbered as in at-spi2-core's atspi-constants.h.
const (
	RoleCheckBox     Role = 7
	RoleComboBox     Role = 11
	RoleDialog       Role = 16
	RoleFrame        Role = 23
	RoleLabel        Role = 29
	RoleList         Role = 31
	RoleListItem     Role = 32
	RoleMenu         Role = 33
	RoleMenuBar      Role = 34
	RoleMenuItem     Role = 35
	RolePageTab      Role = 37
	RolePageTabList  Role = 38
	RolePanel        Role = 39
	RolePasswordText Role = 40
	RolePushButton   Role = 43
	RoleRadioButton  Role = 44
	RoleToggleButton Role = 62
	RoleApplication  Role = 75
	RoleEntry        Role = 79
	RoleHeading      Role = 83
	RoleLink         Role = 88
	RoleNotification Role = 101
)

// roleNames are the names libatspi gives the roles (atspi_role_get_name),
// which GetRoleName returns.
var roleNames = map[Role]string{
	RoleCheckBox:     "check box",
	RoleComboBox:     "combo box",
	RoleDialog:       "dialog",
	RoleFrame:        "frame",
	RoleLabel:        "label",
	RoleList:         "list",
	RoleNotification: "notification",
	RoleListItem:     "list item",
	RoleMenu:         "menu",
	RoleMenuBar:      "menu bar",
	RoleMenuItem:     "menu item",
	RolePageTab:      "page tab",
	RolePageTabList:  "page tab list",
	RolePanel:        "panel",
	RolePasswordText: "password text",
	RolePushButton:   "push button",
	RoleRadioButton:  "radio button",
	RoleToggleButton: "toggle button",
	RoleApplication:  "application",
	RoleEntry:        "entry",
	RoleHeading:      "heading",
	RoleLink:         "link",
}

// String is the role's name as libatspi says it.
func (r Role) String() string { return roleNames[r] }

// State is one AT-SPI state (AtspiStateType).
type State uint

// The states the adapter sets, numbered as in atspi-constants.h.
const (
	StateActive       State = 1
	StateChecked      State = 4
	StateDefunct      State = 6
	StateEditable     State = 7
	StateEnabled      State = 8
	StateExpandable   State = 9
	StateExpanded     State = 10
	StateFocusable    State = 11
	StateFocused      State = 12
	StateModal        State = 16
	StateMultiLine    State = 17
	StatePressed      State = 20
	StateResizable    State = 21
	StateSelectable   State = 22
	StateSelected     State = 23
	StateSensitive    State = 24
	StateShowing      State = 25
	StateSingleLine   State = 26
	StateVisible      State = 30
	StateRequired     State = 33
	StateInvalidEntry State = 36
	StateCheckable    State = 41
	StateHasPopup     State = 42
)

// stateNames are the names of states in state-changed events.
var stateNames = map[State]string{
	StateActive: "active", StateChecked: "checked", StateDefunct: "defunct", StateEditable: "editable",
	StateEnabled: "enabled", StateExpandable: "expandable", StateExpanded: "expanded", StateFocusable: "focusable",
	StateFocused: "focused", StateModal: "modal", StateMultiLine: "multi-line", StatePressed: "pressed",
	StateResizable: "resizable", StateSelectable: "selectable", StateSelected: "selected", StateSensitive: "sensitive",
	StateShowing: "showing", StateSingleLine: "single-line", StateVisible: "visible", StateRequired: "required",
	StateInvalidEntry: "invalid-entry", StateCheckable: "checkable", StateHasPopup: "has-popup",
}

// States is a set of states, bit s for State s, as GetState sends it in
// two 32-bit words.
type States uint64

// With is s with more states set.
func (s States) With(states ...State) States {
	for _, st := range states {
		s |= 1 << st
	}
	return s
}

// Without is s with states cleared.
func (s States) Without(states ...State) States {
	for _, st := range states {
		s &^= 1 << st
	}
	return s
}

// Has reports whether st is set.
func (s States) Has(st State) bool { return s&(1<<st) != 0 }

// words is s as GetState sends it.
func (s States) words() []uint32 { return []uint32{uint32(s), uint32(s >> 32)} }
