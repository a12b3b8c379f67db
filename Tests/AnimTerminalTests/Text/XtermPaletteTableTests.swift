import Testing

@testable import AnimTerminal

/// The stored 256-colour table is the search's result, entry for entry.
struct XtermPaletteTableTests {
    @Test func storedTableIsTheSearchedOne() {
        let searched = XtermPalette.searchTable()
        #expect(searched.count == 32768)
        #expect(XtermPalette.table == searched)
        // And it maps a light sky blue to a blue, not a grey (the reason for OKLab).
        #expect(XtermPalette.index(135, 190, 235) < 232)
    }
}
