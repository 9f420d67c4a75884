// The style every report page shares: system fonts (no font file), readable contrast, and the
// outcome colours, each also named in text wherever it is used.
export const PAGE_STYLE = `
:root{color-scheme:light}body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.45}
main{max-width:72rem;margin:0 auto;padding:1rem 1.5rem 3rem}h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid #ddd}
.exit{font-size:1.05rem}.aborted{color:#a11}.note{background:#fff7e0;border-left:4px solid #c88a00;padding:.4rem .7rem}
table{border-collapse:collapse}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #eee;vertical-align:top}
.outcomes td{text-align:right;font-variant-numeric:tabular-nums}.outcomes td.bar{width:30%;min-width:10rem}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
.o0{fill:#15803d;background:#15803d}.o1{fill:#b91c1c;background:#b91c1c}.o2{fill:#c2410c;background:#c2410c}
.o3{fill:#7c3aed;background:#7c3aed}.o4{fill:#64748b;background:#64748b}.o5{fill:#a3a3a3;background:#a3a3a3}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.5rem 0}.filters label{font-weight:600}
.filters input,.filters select{font:inherit;padding:.2rem .4rem}
.reasons{list-style:none;padding:0;margin:0}.reasons>li{border-bottom:1px solid #eee}
.reason{all:unset;box-sizing:border-box;display:flex;gap:.75rem;width:100%;padding:.4rem .3rem;cursor:pointer}
.reason:focus-visible{outline:2px solid #1b6ac9}.reason:hover{background:#f4f7fb}
.reason .count{min-width:6rem;text-align:right;font-variant-numeric:tabular-nums;font-weight:600}
.reason .what{color:#444;min-width:11rem}.reason .text{overflow-wrap:anywhere}
.viewer{height:22rem;overflow:auto;border:1px solid #ccc;margin:.25rem 0 .75rem;position:relative}
.viewer table{width:100%;table-layout:fixed;font-size:.85rem}.viewer th{position:sticky;top:0;background:#f3f3f3;z-index:1}
.viewer td{height:1.6rem;padding:0 .4rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;border-bottom:1px solid #f0f0f0}
.viewer th:nth-child(1),.viewer th:nth-child(2){width:15%}.viewer th:nth-child(3){width:13%}.viewer th:nth-child(4){width:9%}.spacer td{border:0;padding:0}
.settings{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}.settings dt{font-weight:600}.settings dd{margin:0}
a{color:#0b57b5}
`;
