/// The fixed parts of the HTML report: stylesheet, script and content-security policy.
///
/// The policy forbids every network fetch (`default-src 'none'`), so the report is provably
/// self-contained, and allows exactly one script, fmeval's own, by its SHA-256: even if escaping ever
/// let model output through as markup, the browser would refuse to run it. The script filters and
/// expands rows and draws a large report's lazily written cases (`HTMLLazyChunks`); the summary and
/// what failed read without it.
enum HTMLStyle {
    /// Base64 SHA-256 of `script` (a test recomputes it; Chromium blocks the script if it is stale).
    static let scriptHash = "1vt5IJbDRRoN3pLet38p0wYUH2nMM8i6GVUM7Ja3yDg="

    /// The `Content-Security-Policy` meta value.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-\(scriptHash)'; img-src data:"

    /// The inline stylesheet.
    static let css = """
    :root{--pass:#1a7f37;--fail:#cf222e;--flaky:#bf8700;--error:#8250df;--skip:#6e7781;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa}
    *{box-sizing:border-box}html{-webkit-text-size-adjust:100%;text-size-adjust:100%}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1200px;padding:16px 24px 64px;overflow-wrap:break-word}
    h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
    figure.attachment{margin:4px 0}img.thumb{display:block;max-width:160px;max-height:120px;border:1px solid var(--line);border-radius:4px}
    .meta,.muted{color:var(--muted)}code,pre,.mono{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
    pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px;white-space:pre-wrap;word-break:break-word;margin:4px 0;max-height:480px;overflow:auto}
    table{border-collapse:collapse;margin:6px 0;width:100%}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}th{background:var(--soft);font-weight:600}
    td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    .verdict{font-size:16px;font-weight:600;padding:8px 12px;border-radius:6px;margin:8px 0;display:inline-block}.verdict.ok{background:#dafbe1;color:var(--pass)}.verdict.bad{background:#ffebe9;color:var(--fail)}
    .badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;line-height:18px;font-weight:600;color:#fff;min-width:54px;text-align:center;white-space:nowrap}
    td.mono,summary .mono,.entry code{overflow-wrap:break-word}dd{overflow-wrap:anywhere}table.failures td:nth-child(2){width:32%}td.mono:first-child{min-width:min(26ch,40vw)}td.gate{white-space:nowrap}
    .badge.passed,.badge.unchanged,.badge.fixed,.badge.added{background:var(--pass)}.badge.failed,.badge.regression,.badge.new-failure,.badge.still-failing{background:var(--fail)}
    .badge.flaky{background:var(--flaky)}.badge.error{background:var(--error)}.badge.skipped,.badge.removed{background:var(--skip)}
    .badge.knownIssue,.badge.known-issue{background:#0969da}svg .known-issue{fill:#0969da}.known-reason{color:var(--muted)}
    .counts{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0}.counts div{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:90px}.counts b{display:block;font-size:20px}
    dl.fp{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:6px 0}dl.fp dt{color:var(--muted)}dl.fp dd{margin:0;font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
    details.case{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:0 10px}details.case>summary{cursor:pointer;padding:6px 0;font-weight:600}
    details.attempt{margin:6px 0 6px 12px}details.attempt>summary{cursor:pointer;color:var(--muted)}
    .entry{border-left:3px solid var(--line);margin:6px 0;padding:2px 10px}.entry .role{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
    .entry.instructions{border-color:#8c959f}.entry.prompt{border-color:#0969da}.entry.response{border-color:var(--pass)}.entry.toolCalls,.entry.toolOutput{border-color:var(--flaky)}.entry.reasoning{border-color:var(--error)}
    tr.metric-fail td{color:var(--fail)}tr.metric-pass td:first-child{color:var(--pass)}
    svg.chart{display:block;margin:6px 0;max-width:100%;height:auto}svg.chart text{font:12px system-ui,sans-serif;fill:var(--fg)}
    svg .track{fill:#eaeef2}svg .pass,svg .passed{fill:var(--pass)}svg .fail,svg .failed{fill:var(--fail)}svg .flaky{fill:var(--flaky)}svg .error{fill:var(--error)}svg .skipped{fill:var(--skip)}
    svg .a{fill:#0969da}svg .b{fill:#bc4c00}svg .whisker{stroke:var(--fg);stroke-width:1.5;fill:none}
    table.matrix td.hit{background:#dafbe1;font-weight:600}table.matrix td.miss{background:#ffebe9}
    #filters{position:sticky;top:0;background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);z-index:1}#filters input,#filters select{font:inherit;padding:3px 6px;margin-right:8px}
    .hidden{display:none}
    @media (max-width:640px){body{font-size:15px;padding:10px 12px 48px}h1{font-size:20px}h2{font-size:17px}
    table{display:block;overflow-x:auto;max-width:100%}th,td{padding:4px 6px}
    .counts{gap:6px}.counts div{min-width:auto;flex:1 1 22%;padding:4px 8px}.counts b{font-size:18px}
    table.stack{display:table}table.stack thead{display:none}table.stack tr{display:block;border-bottom:1px solid var(--line);padding:6px 0}
    table.stack td{display:inline;border:0;padding:0 8px 0 0;min-width:0}table.stack td:last-child{display:block;padding:2px 0 0;font-size:14px}table.stack td:empty{display:none}
    table.stack td.num,table.stack td.gate{color:var(--muted);font-size:13px}
    dl.fp{grid-template-columns:1fr;gap:0}dl.fp dd{margin-bottom:6px}
    details.case{padding:0 6px}details.attempt{margin-left:2px}.entry{padding:2px 6px}pre{padding:6px}
    #filters input{width:100%;margin:0 0 6px}}
    """

    /// The inline script: draws the lazily rendered cases (`HTMLLazyChunks`) a chunk at a time after the first
    /// paint, and at once the chunk an `#case-N` link points into; filters cases by text and status; expands or
    /// collapses all details. Sets `data-fmeval-ready` when set up, `data-fmeval-rendered` when every case is drawn.
    static let script = """
    (function(){
      var root=document.documentElement,block=document.getElementById('fmeval-lazy');
      var lazy=block?JSON.parse(block.textContent):{chunks:0,anchors:{}},drawn=[],left=lazy.chunks,next=0;
      var filters=document.getElementById('filters');
      var text=document.getElementById('filter-text'),status=document.getElementById('filter-status');
      function shows(r){
        if(!filters){return true;}
        var q=text.value.trim().toLowerCase(),s=status.value;
        return (!q||r.getAttribute('data-case').toLowerCase().indexOf(q)>=0)&&(!s||r.getAttribute('data-status')===s);
      }
      function filter(scope){
        var rows=scope.querySelectorAll('[data-case]');
        for(var i=0;i<rows.length;i++){rows[i].classList.toggle('hidden',!shows(rows[i]));}
      }
      function count(){
        if(!filters){return;}
        var shown=document.querySelectorAll('details.case:not(.hidden)').length;
        document.getElementById('filter-count').textContent=shown+' shown'+(left?' so far':'');
      }
      function draw(k){
        if(drawn[k]){return;}
        drawn[k]=true;left--;
        var slot=document.getElementById('lazy-'+k),data=document.getElementById('fmeval-chunk-'+k);
        var t=document.createElement('template');
        t.innerHTML=data.textContent;data.remove();
        filter(t.content);
        if(slot){slot.replaceWith(t.content);}
        if(!left){root.setAttribute('data-fmeval-rendered','1');}
      }
      function drawAll(){for(var k=0;k<lazy.chunks;k++){draw(k);}}
      function reveal(){
        var id=location.hash.slice(1),k=lazy.anchors[id];
        if(!id||k===undefined||drawn[k]){return;}
        draw(k);count();
        var target=document.getElementById(id);
        if(target){target.scrollIntoView();}
      }
      function step(){
        var end=performance.now()+40;
        while(left&&next<lazy.chunks&&performance.now()<end){draw(next++);}
        count();
        if(left){setTimeout(step,0);}
      }
      window.addEventListener('hashchange',reveal);
      reveal();
      if(filters){
        filters.hidden=false;
        var apply=function(){filter(document);count();};
        text.addEventListener('input',apply);status.addEventListener('change',apply);
        document.getElementById('expand-all').addEventListener('click',function(){
          drawAll();count();
          var d=document.querySelectorAll('details.case');for(var i=0;i<d.length;i++){d[i].open=true;}
        });
        document.getElementById('collapse-all').addEventListener('click',function(){
          var d=document.querySelectorAll('details');for(var i=0;i<d.length;i++){d[i].open=false;}
        });
        apply();
      }
      if(left){setTimeout(step,0);}else{root.setAttribute('data-fmeval-rendered','1');}
      root.setAttribute('data-fmeval-ready','1');
    })();
    """
}
