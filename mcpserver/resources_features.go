package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// featureOptions declares the capabilities of Config.Resources, Prompts
// and Complete and sets the SDK handlers they need. A capability is
// declared even when its list is empty, as Mastra does.
func (s *Server) featureOptions(opts *mcp.ServerOptions) {
	if s.cfg.Resources != nil {
		opts.Capabilities.Resources = &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true}
		opts.SubscribeHandler, opts.UnsubscribeHandler = s.subscribe, s.unsubscribe
	}
	if s.cfg.Prompts != nil {
		opts.Capabilities.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	}
	if s.cfg.Complete != nil {
		opts.Capabilities.Completions = &mcp.CompletionCapabilities{}
		opts.CompletionHandler = s.completionHandler
	}
}

// installFeatures checks Config.Resources and Prompts and registers their
// first listing on the SDK server (a listing error fails New).
func (s *Server) installFeatures() error {
	ctx := s.done
	if r := s.cfg.Resources; r != nil {
		if err := checkResources(r); err != nil {
			return err
		}
		if err := s.loadResources(ctx); err != nil {
			return err
		}
	}
	if p := s.cfg.Prompts; p != nil {
		form, err := checkPrompts(p)
		if err != nil {
			return err
		}
		s.prompts.form = form
		if err := s.loadPrompts(ctx); err != nil {
			return err
		}
	}
	return nil
}
