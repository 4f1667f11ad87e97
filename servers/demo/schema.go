package demo

// The requested schemas are written as JSON rather than built from Go maps:
// a map is encoded with its keys sorted, and the order of the properties is
// the order of the form's fields. json.Marshal compacts them on the wire.

// everyFieldSchema has one property of every kind the spec allows, each with
// a default, in an order that is deliberately not alphabetical.
const everyFieldSchema = `{
  "type": "object",
  "properties": {
    "name": {
      "type": "string",
      "title": "Name",
      "description": "Text between 2 and 40 characters.",
      "minLength": 2,
      "maxLength": 40,
      "default": "Ada Lovelace"
    },
    "email": {
      "type": "string",
      "title": "Email",
      "description": "An email address.",
      "format": "email",
      "default": "ada@example.com"
    },
    "website": {
      "type": "string",
      "title": "Website",
      "description": "A URI.",
      "format": "uri",
      "default": "https://example.com/ada"
    },
    "birthday": {
      "type": "string",
      "title": "Birthday",
      "description": "A date.",
      "format": "date",
      "default": "1815-12-10"
    },
    "meeting": {
      "type": "string",
      "title": "Meeting",
      "description": "A date and time.",
      "format": "date-time",
      "default": "2025-11-25T09:30:00Z"
    },
    "guests": {
      "type": "integer",
      "title": "Guests",
      "description": "A whole number from 1 to 12.",
      "minimum": 1,
      "maximum": 12,
      "default": 2
    },
    "budget": {
      "type": "number",
      "title": "Budget",
      "description": "Any number from 0 to 1000.",
      "minimum": 0,
      "maximum": 1000,
      "default": 99.5
    },
    "newsletter": {
      "type": "boolean",
      "title": "Newsletter",
      "description": "Yes or no.",
      "default": true
    },
    "color": {
      "type": "string",
      "title": "Color",
      "description": "One choice, untitled (enum).",
      "enum": ["red", "green", "blue"],
      "default": "green"
    },
    "size": {
      "type": "string",
      "title": "Size",
      "description": "One choice, titled (oneOf).",
      "oneOf": [
        {"const": "s", "title": "Small"},
        {"const": "m", "title": "Medium"},
        {"const": "l", "title": "Large"}
      ],
      "default": "m"
    },
    "plan": {
      "type": "string",
      "title": "Plan",
      "description": "One choice, legacy titles (enum with enumNames).",
      "enum": ["free", "pro", "team"],
      "enumNames": ["Free", "Pro", "Team"],
      "default": "pro"
    },
    "toppings": {
      "type": "array",
      "title": "Toppings",
      "description": "Several choices, untitled (items.enum).",
      "items": {"type": "string", "enum": ["cheese", "mushroom", "olive", "pepper"]},
      "default": ["cheese", "olive"]
    },
    "days": {
      "type": "array",
      "title": "Days",
      "description": "One or two choices, titled (items.anyOf).",
      "minItems": 1,
      "maxItems": 2,
      "items": {
        "anyOf": [
          {"const": "mon", "title": "Monday"},
          {"const": "wed", "title": "Wednesday"},
          {"const": "fri", "title": "Friday"}
        ]
      },
      "default": ["mon", "fri"]
    }
  },
  "required": ["name", "email", "guests"]
}`

// confirmSchema is a single boolean.
const confirmSchema = `{
  "type": "object",
  "properties": {
    "confirm": {
      "type": "boolean",
      "title": "Confirm",
      "description": "Tick to confirm.",
      "default": false
    }
  },
  "required": ["confirm"]
}`

// nameSchema is ask_twice's first question.
const nameSchema = `{
  "type": "object",
  "properties": {
    "name": {
      "type": "string",
      "title": "Your name",
      "minLength": 1,
      "maxLength": 60
    }
  },
  "required": ["name"]
}`

// drinkSchema is ask_twice's second question, a choice.
const drinkSchema = `{
  "type": "object",
  "properties": {
    "drink": {
      "type": "string",
      "title": "Drink",
      "oneOf": [
        {"const": "tea", "title": "Tea"},
        {"const": "coffee", "title": "Coffee"},
        {"const": "water", "title": "Water"}
      ],
      "default": "tea"
    }
  },
  "required": ["drink"]
}`

// giveUpSchema is what ask_then_give_up asks, knowing it will stop waiting.
const giveUpSchema = `{
  "type": "object",
  "properties": {
    "answer": {
      "type": "string",
      "title": "Quick answer",
      "description": "Answer before the server gives up."
    }
  },
  "required": ["answer"]
}`

// colorSchema is the input_required tool's question.
const colorSchema = `{
  "type": "object",
  "properties": {
    "color": {
      "type": "string",
      "title": "Favourite colour",
      "enum": ["red", "green", "blue"],
      "default": "blue"
    },
    "why": {
      "type": "string",
      "title": "Why?",
      "maxLength": 200
    }
  },
  "required": ["color"]
}`
