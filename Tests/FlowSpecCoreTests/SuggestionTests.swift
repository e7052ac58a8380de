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
        #expect(budget.closest(to: "hme", count: 4, among: candidates) == "home")
        #expect(budget.closest(to: "bak", count: 4, among: candidates) == "back")
        #expect(budget.comparisons == 2)
        #expect(budget.closest(to: "don", count: 4, among: candidates) == nil)
        #expect(budget.closest(to: "don", count: 1, among: { ["done"] }) == nil)
        #expect(budget.comparisons == 0 && made == 2)
    }
}
