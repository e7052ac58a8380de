import Testing

@testable import FlowSpecCore

/// "Did you mean" hints: the closest name, and a budget that bounds the searches of a machine.
@Suite("Suggestions")
struct SuggestionTests {
    @Test func theClosestNameWithinAFewEditsIsSuggested() {
        #expect(Suggestion.hint(for: "hmoe", among: ["away", "home", "homes"]) == "; did you mean 'home'?")
        #expect(Suggestion.hint(for: "HOME", among: ["away", "home"]) == "; did you mean 'home'?")
        #expect(Suggestion.hint(for: "elsewhere", among: ["away", "home"]) == "")
    }

    /// Each search is paid for whole, candidate by candidate; the first that the rest cannot
    /// pay for gets no hint, and nothing after it does, so the hints of a spec are the same on
    /// every run. Candidates are not even made once the budget is spent.
    @Test func theBudgetPaysForWholeSearchesThenStops() {
        var budget = SuggestionBudget(comparisons: 10)
        var made = 0
        func candidates() -> [String] {
            made += 1
            return ["home", "away", "back", "done"]
        }
        #expect(budget.hint(for: "hme", count: 4, among: candidates) == "; did you mean 'home'?")
        #expect(budget.hint(for: "bak", count: 4, among: candidates) == "; did you mean 'back'?")
        #expect(budget.comparisons == 2)
        #expect(budget.hint(for: "don", count: 4, among: candidates) == "")
        #expect(budget.hint(for: "don", count: 1, among: { ["done"] }) == "")
        #expect(budget.comparisons == 0 && made == 2)
    }
}
