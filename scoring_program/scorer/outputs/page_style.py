"""The style sheet of the scoring program's HTML pages (the detailed results, a blind phase's page,
the local error analysis)."""

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1em;color:#1b1f23;max-width:80em;
overflow-wrap:anywhere}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
h3{font-size:1em;margin:1.2em 0 .3em}
.scroll{overflow-x:auto;max-width:100%;background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/2em 100% no-repeat local,
linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/2em 100% no-repeat local,
radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.25),rgba(0,0,0,0)) left/.9em 100% no-repeat scroll,
radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.25),rgba(0,0,0,0)) right/.9em 100% no-repeat scroll}
td.sticky,th.sticky{position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 #d0d7de}th.sticky{background:#f6f8fa}
.scroll-hint{display:none}
@media (max-width:600px){body{margin:.5em}table{font-size:.85em}th,td{padding:.2em .35em}td.label,th.label{min-width:6.5em}
td.sticky{max-width:10em;overflow-wrap:anywhere}.scroll-hint{display:block}}
table{border-collapse:collapse;margin:.4em 0}th,td{padding:.25em .6em;text-align:right;border-bottom:1px solid #eaeef2;
white-space:nowrap}th:first-child,td:first-child{text-align:left}th{background:#f6f8fa;vertical-align:bottom;white-space:normal;overflow-wrap:normal}
td.text{text-align:left;white-space:normal}
th button{font:inherit;font-weight:bold;background:none;border:0;padding:0;cursor:pointer;color:inherit}
th[aria-sort=ascending] button::after{content:" \25B2"}th[aria-sort=descending] button::after{content:" \25BC"}
td.bar{width:6em;min-width:6em;text-align:left}td.label,th.label{text-align:left;white-space:normal;min-width:8em;overflow-wrap:normal}.bar span{display:inline-block;height:.8em;background:#2f81f7;vertical-align:middle}
.bar span.over{background:#cf222e}tr.absent td{color:#6e7781}.tag{font-size:.8em;border:1px solid #8c959f;
border-radius:.6em;padding:0 .4em;margin-left:.4em;color:#57606a}
.warnings{color:#9a6700}.note{color:#57606a;font-size:.9em}.key{font-family:monospace}
.failed{background:#ffebe9;border-left:3px solid #cf222e;padding:.4em .8em}
.summary{background:#f6f8fa;border-left:3px solid #2f81f7;padding:.4em .8em}
svg.chart{max-width:100%;height:auto;display:block}
@media print{.scroll{overflow:visible}th button::after{content:""}body{max-width:none;margin:0}
h2{break-after:avoid}table,svg{break-inside:avoid}}
"""
