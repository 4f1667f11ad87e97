package forms

// What each way of answering tells the server, in the person's words, as
// the spec defines the actions: decline is an explicit no (the server may
// offer another way), cancel a dismissal without a choice (the server may
// ask again later). Every window that offers these buttons shows these.
const (
	DeclineHelp = "Decline tells the server you won't answer this. It may offer another way."
	CancelHelp  = "Cancel dismisses the request without an answer. The server may ask again later."
)
