package toolsearch

import (
	"strconv"
	"strings"
)

// Everything below is what the model reads, byte for byte Mastra 1.71's
// (testdata/mastra.json holds the captured originals).

// System messages added at every step.
const (
	guidanceMessage = "To discover available tools, call search_tools with a keyword query. To add one or more tools to the " +
		"conversation, call load_tool with a toolName or toolNames array. Tools must be loaded before they can be used."
	guidanceAutoLoadMessage = "To discover available tools, call search_tools with a keyword query. Matching tools are loaded " +
		"automatically and become available on your next turn — there is no separate load step. After searching, use the tool directly."
	catalogHeader = "The following tools are available to load. Call load_tool with a toolName or toolNames array to add one or " +
		"more before using them — no search step is required. search_tools is also available if you need to rediscover tools by keyword."
	catalogAutoLoadHeader = "The following tools are available. Call search_tools with a keyword to load one — matching tools are " +
		"loaded automatically and become available on your next turn."
	catalogListIntro = "\n\nAvailable tools:\n"
)

// Meta-tool descriptions.
const (
	searchToolDescription = "Search for available tools by keyword. Use this when you need a capability you don't currently have. " +
		"Returns a list of matching tools with their names and descriptions. After finding a useful tool, use load_tool to make it available."
	searchToolAutoLoadDescription = "Search for available tools by keyword. Use this when you need a capability you don't currently have. " +
		"Returns a list of matching tools, which are loaded automatically and become available on your next turn — no separate load step is required."
	loadToolDescription = "Load one or more tools into your context. Call this after finding tools with search_tools. Once loaded, " +
		"tools will be available for use. Pass a single toolName or an array of toolNames to load multiple tools at once."
)

// load_tool's fixed failure messages.
const (
	emptyToolNamesMessage = "toolNames array must not be empty."
	noToolNameMessage     = "You must provide either toolName (string) or toolNames (array) to load."
)

func noResultsMessage(query string) string {
	return `No tools found matching "` + query + `". Try different keywords.`
}

func foundMessage(n int) string {
	return "Found " + strconv.Itoa(n) + " tool(s). Use load_tool with an exact toolName or a toolNames array to make them available."
}

func foundAndLoadedMessage(results []SearchResult, newlyLoaded int) string {
	names := make([]string, len(results))
	for i, r := range results {
		names[i] = r.Name
	}
	msg := "Found and loaded " + strconv.Itoa(len(results)) + " tool(s): " + strings.Join(names, ", ") +
		". They are available on your next turn — call them directly."
	if newlyLoaded < len(results) {
		msg += " Some were already loaded."
	}
	return msg
}

func notFoundMessage(name string, suggestions []string) string {
	msg := `Tool "` + name + `" not found.`
	if len(suggestions) > 0 {
		return msg + " Did you mean: " + strings.Join(suggestions[:min(3, len(suggestions))], ", ") + "?"
	}
	return msg + " Use search_tools to find available tools."
}

func alreadyLoadedMessage(name string) string {
	return `Tool "` + name + `" is already loaded and available.`
}

func loadedMessage(name string) string {
	return `Tool "` + name + `" loaded successfully. It will be available on your next turn.`
}

// multiLoadMessage is the toolNames form's message: the non-empty groups
// joined with " | ".
func multiLoadMessage(loaded, alreadyLoaded, notFound []string) string {
	var parts []string
	if len(loaded) > 0 {
		parts = append(parts, "Loaded: "+strings.Join(loaded, ", ")+" — available on your next turn")
	}
	if len(alreadyLoaded) > 0 {
		parts = append(parts, "Already loaded: "+strings.Join(alreadyLoaded, ", "))
	}
	if len(notFound) > 0 {
		parts = append(parts, "Not found: "+strings.Join(notFound, ", "))
	}
	return strings.Join(parts, " | ")
}
