extension Dashboard {
    /// `GET /dashboard.css`: light and dark by `prefers-color-scheme`, focus always visible.
    static let style = #"""
/* PushContracts dashboard: light and dark by prefers-color-scheme, focus always visible. */
:root {
  --bg: #f6f7f9; --panel: #ffffff; --text: #1b1f24; --muted: #57606a; --line: #d0d7de;
  --accent: #0550ae; --good: #116329; --bad: #a40e26; --warn: #7d4e00; --phone: #eef1f5;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --panel: #161b22; --text: #e6edf3; --muted: #9da7b3; --line: #30363d;
    --accent: #79c0ff; --good: #56d364; --bad: #ff7b72; --warn: #e3b341; --phone: #1f2630;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { padding: 0.75rem 1.25rem; border-bottom: 1px solid var(--line); display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
h1 { font-size: 1.2rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 0 0 0.5rem; }
h3 { font-size: 0.95rem; margin: 0.75rem 0 0.25rem; }
h4 { font-size: 0.85rem; margin: 0 0 0.25rem; color: var(--muted); }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; padding: 1rem 1.25rem; }
main > section { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1rem; min-width: 0; }
#feed-panel { grid-column: 1 / -1; }
#live-status { margin: 0; color: var(--muted); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 0.5rem; background: var(--panel); padding: 0.25rem 0.5rem; z-index: 1; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
button, input, select, textarea { font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.25rem 0.5rem; }
button { cursor: pointer; }
button:hover { border-color: var(--accent); }
button.link { border: none; background: none; color: var(--accent); text-decoration: underline; padding: 0; }
textarea { width: 100%; font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
textarea[aria-invalid="true"] { border-color: var(--bad); }
label { margin-right: 0.25rem; }
.filters { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: center; margin-bottom: 0.5rem; }
.scroll { max-height: 24rem; overflow: auto; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); padding-bottom: 0.25rem; }
th, td { text-align: left; padding: 0.2rem 0.4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { position: sticky; top: 0; background: var(--panel); }
td.path, code, pre { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.85rem; }
tr.bad td.status { color: var(--bad); font-weight: 600; }
tr.good td.status { color: var(--good); }
tr.skipped td { color: var(--warn); font-style: italic; }
ul.violations { margin: 0; padding-left: 1rem; color: var(--bad); }
ul.violations li.warning { color: var(--warn); }
.ok { color: var(--good); }
.empty, .note { color: var(--muted); }
.detail { border-top: 1px solid var(--line); margin-top: 0.5rem; }
.detail pre { max-height: 20rem; overflow: auto; background: var(--bg); padding: 0.5rem; border-radius: 6px; }
.phones { display: flex; flex-wrap: wrap; gap: 0.75rem; }
.phone { background: var(--phone); border: 1px solid var(--line); border-radius: 18px; padding: 0.75rem; width: 18rem; }
.phone header { padding: 0; border: none; gap: 0.5rem; align-items: center; }
.phone h3 { margin: 0; }
.badge { background: var(--bad); color: #fff; border-radius: 999px; min-width: 1.4rem; text-align: center; font-weight: 700; padding: 0 0.35rem; }
.badge:empty { display: none; }
.online { color: var(--good); }
.offline { color: var(--bad); }
.group { background: var(--panel); border-radius: 12px; padding: 0.5rem; margin-top: 0.5rem; }
.group ul, .notes { list-style: none; margin: 0; padding: 0; }
.notification { display: flex; flex-direction: column; padding: 0.3rem 0; border-top: 1px solid var(--line); }
.notification:first-child { border-top: none; }
.notification .meta { color: var(--muted); font-size: 0.8rem; }
.notes li { font-size: 0.85rem; margin-top: 0.4rem; }
.notes .stored { color: var(--warn); }
.notes .dropped { color: var(--bad); }
.activity { border: 2px solid var(--accent); border-radius: 12px; padding: 0.5rem; margin-top: 0.5rem; }
.activity.ended, .activity.dismissed { opacity: 0.6; border-style: dashed; }
.activity.stale { border-color: var(--warn); }
.activity p { margin: 0.2rem 0; }
.switches { list-style: none; padding: 0; margin: 0; }
.switch { display: grid; grid-template-columns: auto 1fr; gap: 0.1rem 0.5rem; padding: 0.35rem 0; border-bottom: 1px solid var(--line); }
.switch .curl { grid-column: 2; color: var(--muted); overflow-wrap: anywhere; }
input[type="checkbox"] { width: 1.1rem; height: 1.1rem; }
pre.curl { white-space: pre-wrap; overflow-wrap: anywhere; color: var(--muted); }
"""#
}
