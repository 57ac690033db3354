package storagetest

import (
	"testing"

	"github.com/gomastra/mastra/storage"
)

var claimTests = []subtest{
	{name: "FirstWins", runs: testClaimFirstWins},
	{name: "KeysIndependent", runs: testClaimKeys},
	{name: "MissingRun", runs: testClaimMissingRun},
	{name: "SurvivesUpdate", runs: testClaimSurvivesUpdate},
}

func testClaimFirstWins(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	_, err := s.SaveRun(ctx, newRun("run"))
	must(t, "SaveRun", err)
	must(t, "first ClaimResume", s.ClaimResume(ctx, "run", "call-1", "process-a"))
	wantErr(t, "second ClaimResume, another owner", s.ClaimResume(ctx, "run", "call-1", "process-b"), storage.ErrConflict)
	wantErr(t, "second ClaimResume, same owner", s.ClaimResume(ctx, "run", "call-1", "process-a"), storage.ErrConflict)
}

func testClaimKeys(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	for _, id := range []string{"run-1", "run-2"} {
		_, err := s.SaveRun(ctx, newRun(id))
		must(t, "SaveRun", err)
	}
	// "" (the whole run) is a key of its own.
	must(t, `ClaimResume ""`, s.ClaimResume(ctx, "run-1", "", "p"))
	wantErr(t, `ClaimResume "" again`, s.ClaimResume(ctx, "run-1", "", "p"), storage.ErrConflict)
	must(t, "ClaimResume call-1", s.ClaimResume(ctx, "run-1", "call-1", "p"))
	must(t, "ClaimResume call-2", s.ClaimResume(ctx, "run-1", "call-2", "p"))
	wantErr(t, "ClaimResume call-2 again", s.ClaimResume(ctx, "run-1", "call-2", "p"), storage.ErrConflict)
	// The same keys on another run.
	must(t, "ClaimResume run-2 call-1", s.ClaimResume(ctx, "run-2", "call-1", "p"))
	must(t, `ClaimResume run-2 ""`, s.ClaimResume(ctx, "run-2", "", "p"))
}

func testClaimMissingRun(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	wantErr(t, "ClaimResume of a missing run", s.ClaimResume(ctx, "nope", "call-1", "p"), storage.ErrNotFound)
	// The failed claim took nothing.
	_, err := s.SaveRun(ctx, newRun("nope"))
	must(t, "SaveRun", err)
	must(t, "ClaimResume once the run exists", s.ClaimResume(ctx, "nope", "call-1", "p"))
}

func testClaimSurvivesUpdate(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun", err)
	must(t, "ClaimResume", s.ClaimResume(ctx, "run", "call-1", "p"))
	r.Version, r.Status = v, storage.RunRunning
	_, err = s.SaveRun(ctx, r)
	must(t, "SaveRun update", err)
	wantErr(t, "ClaimResume after an update of the run", s.ClaimResume(ctx, "run", "call-1", "q"), storage.ErrConflict)
}
