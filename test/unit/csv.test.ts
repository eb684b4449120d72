import { describe, expect, it } from "vitest";
import { csvDownload } from "@/lib/http/csv";

async function* rows<T>(items: T[], failFirst = false) {
  if (failFirst) throw new Error("the query failed");
  for (const item of items) yield item;
}

describe("CSV downloads", () => {
  it("quotes, escapes formulas (= + - @, tab, CR) and writes objects as JSON", async () => {
    let started = 0;
    const response = await csvDownload(
      rows([
        { a: '=HYPERLINK("http://evil")', b: "+1", c: { x: 1 } },
        { a: "@SUM(A1)", b: "\tcmd", c: null },
        { a: "-2", b: "\rcmd", c: 'plain, with "quotes"\nand a line' },
      ]),
      [
        ["a", (r) => r.a],
        ["b", (r) => r.b],
        ["c", (r) => r.c],
      ],
      { filename: "x.csv", started: async () => void (started += 1) },
    );
    expect(started).toBe(1);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const text = await response.text();
    const lines = text.split("\n");
    expect(lines[0]).toBe("a,b,c");
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil"")",'+1,"{""x"":1}"`);
    expect(lines[2]).toMatch(/^'@SUM\(A1\),'\tcmd,$/);
    expect(text).toContain(`'-2,`);
    expect(text).toContain(`"plain, with ""quotes""\nand a line"`);
  });

  it("starts (and audits) nothing when the first rows cannot be read", async () => {
    let started = 0;
    await expect(
      csvDownload(rows([], true), [["a", () => 1]], {
        filename: "x.csv",
        started: async () => void (started += 1),
      }),
    ).rejects.toThrow("the query failed");
    expect(started).toBe(0);
  });
});
