package forms

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// secretTerms returns the one list of what marks a field as asking for a
// credential. Each entry is written as a person would write it; it is
// normalised and split into words like the field's own text, so "2FA",
// "one-time code" and "Раssword" all meet it on equal terms.
func secretTerms() []secretTerm {
	return []secretTerm{
		// Inside words: long enough that no ordinary word contains them.
		{"password", inside}, {"passwd", inside}, {"passphrase", inside}, {"passcode", inside},
		{"pwd", inside}, {"credential", inside}, {"apikey", inside}, {"apitoken", inside},
		{"authtoken", inside}, {"accesstoken", inside}, {"refreshtoken", inside},
		{"sessiontoken", inside}, {"bearertoken", inside}, {"secretkey", inside},
		{"privatekey", inside}, {"clientsecret", inside}, {"cardnumber", inside},
		{"creditcard", inside}, {"seedphrase", inside}, {"recoveryphrase", inside},
		{"passwort", inside}, {"kennwort", inside}, {"wachtwoord", inside},
		{"contraseña", inside}, {"contrasena", inside}, {"пароль", inside},
		{"密码", inside}, {"密碼", inside}, {"口令", inside}, {"パスワード", inside},
		{"暗証番号", inside}, {"비밀번호", inside}, {"पासवर्ड", inside},

		// Whole words anywhere.
		{"pw", words}, {"otp", words}, {"totp", words}, {"2fa", words}, {"mfa", words},
		{"ssn", words}, {"cvv", words}, {"cvc", words}, {"pin code", words},
		{"pincode", words}, {"bearer", words}, {"api key", words}, {"api token", words},
		{"access key", words}, {"access token", words}, {"auth token", words},
		{"private key", words}, {"secret key", words}, {"client secret", words},
		{"card number", words}, {"credit card", words}, {"security code", words},
		{"one time code", words}, {"one time password", words}, {"verification code", words},
		{"authentication code", words}, {"auth code", words}, {"seed phrase", words},
		{"recovery phrase", words}, {"mnemonic phrase", words}, {"social security number", words},
		{"authorization header", words}, {"authorization token", words},
		// The inside terms split in two (passWord, pass_code): as phrases,
		// so that "compass word" stays ordinary.
		{"pass word", words}, {"pass phrase", words}, {"pass code", words},
		{"mot de passe", words}, {"senha", words},
		{"hasło", words}, {"haslo", words}, {"şifre", words}, {"sifre", words},
		{"parola", words}, {"암호", words}, {"كلمة المرور", words}, {"كلمة السر", words},
		// "Paste your secret value here": a description that says secret
		// means it, while "secretary" and "secretly" are other words.
		{"secret", words},

		// Whole words in name and title only.
		{"pin", label}, {"token", label}, {"authorization", label},
	}
}

// secretTerm is a word or phrase and where it may match.
type secretTerm struct {
	text  string
	where matchWhere
}

// matchWhere says where a term counts: inside words, whole words in any
// text, or whole words in a name or title only (short or everyday words that
// a description may use innocently).
type matchWhere int

const (
	inside matchWhere = iota // anywhere inside a word, in any text
	words                    // whole words, in any text
	label                    // whole words, in the name and title only
)

// secretTable is secretTerms normalised and split, built once.
var secretTable = sync.OnceValue(func() (t struct {
	inside       []string
	words, label [][]string
}) {
	for _, term := range secretTerms() {
		w := splitWords(term.text)
		switch term.where {
		case inside:
			t.inside = append(t.inside, strings.Join(w, ""))
		case words:
			t.words = append(t.words, w)
		case label:
			t.label = append(t.label, w)
		}
	}
	return t
})

// Secret reports whether the field seems to ask for a secret such as a
// password, token, API key, one-time code or card number, judged from its
// name, title and description after undoing the tricks that hide a word
// (look-alike letters, invisible characters, odd spellings of case). Servers
// must not ask for these in a form, so the UI masks the input and warns, and
// history stores the value redacted.
func (f *Field) Secret() bool {
	return looksSecret(f.Name, true) || looksSecret(string(f.Title), true) || looksSecret(string(f.Description), false)
}

// SecretFields returns whether the field of schema with a given name seems
// to ask for a secret (Field.Secret); a name the schema has no field of,
// or any name when schema does not parse, is judged by the name alone.
// History and the traffic capture redact by it.
func SecretFields(schema []byte) func(name string) bool {
	parsed, _ := Parse(schema)
	return func(name string) bool {
		if parsed != nil {
			if f := parsed.Field(name); f != nil {
				return f.Secret()
			}
		}
		return looksSecret(name, true)
	}
}

// Masked reports whether the field's input hides what is typed: a text or
// number field (a PIN, a CVV) that seems to ask for a secret. Review shows
// its value masked too.
func (f *Field) Masked() bool {
	return (f.Kind == Text || f.Kind == Number || f.Kind == Integer) && f.Secret()
}

// looksSecret reports whether s contains a secret term; isLabel admits the
// terms that count only in a name or title.
func looksSecret(s string, isLabel bool) bool {
	ws := splitWords(s)
	if joined, ok := spelled(ws); ok && matchesSecret(joined, isLabel) {
		return true
	}
	return matchesSecret(ws, isLabel)
}

// spelled is ws with each run of three or more one-letter words joined
// into one, the way "P a s s w o r d" or "P.I.N" hides a word, and
// whether there was such a run.
func spelled(ws []string) ([]string, bool) {
	var out []string
	found := false
	for i := 0; i < len(ws); {
		j := i
		for j < len(ws) && utf8.RuneCountInString(ws[j]) == 1 {
			j++
		}
		if j-i >= 3 {
			out = append(out, strings.Join(ws[i:j], ""))
			found, i = true, j
			continue
		}
		out = append(out, ws[i])
		i++
	}
	return out, found
}

// matchesSecret reports whether the words ws hold a secret term.
func matchesSecret(ws []string, isLabel bool) bool {
	t := secretTable()
	for _, w := range ws {
		for _, term := range t.inside {
			if strings.Contains(w, term) {
				return true
			}
		}
	}
	if hasPhrase(ws, t.words) {
		return true
	}
	return isLabel && hasPhrase(ws, t.label)
}

// hasPhrase reports whether any phrase occurs as consecutive words of ws.
func hasPhrase(ws []string, phrases [][]string) bool {
	for i := range ws {
		for _, p := range phrases {
			if len(p) > 0 && i+len(p) <= len(ws) && slices.Equal(ws[i:i+len(p)], p) {
				return true
			}
		}
	}
	return false
}
