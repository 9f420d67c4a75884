// The run page's one script (plain ES2019, no library): the reasons listed from the data block, each
// opening into its rows; the rows filtered by the search box and the selects, and drawn only as they
// scroll into view (a fixed row height, spacer rows above and below), so 25,000 rows cost what a
// screenful does. Every value goes in with textContent: nothing from the data is ever markup.
export const RUN_SCRIPT = `(function(){
'use strict';
var data=JSON.parse(document.getElementById('page-data').textContent);
var ROW=26,VIEW=22*16;
var list=document.getElementById('reasons');
if(!list)return;
var search=document.getElementById('search'),fRes=document.getElementById('f-resource'),fOut=document.getElementById('f-outcome'),fFile=document.getElementById('f-file');
var status=document.getElementById('match-count');
var hay=null,open=-1,viewer=null,shown=[];
function el(tag,text,cls){var n=document.createElement(tag);if(text!==undefined)n.textContent=text;if(cls)n.className=cls;return n;}
function fmt(n){return n.toLocaleString('en-US');}
function haystack(){if(!hay)hay=data.rows.map(function(r){return (r[1]+':'+r[2]+' '+r[5]+' '+r[6]+' '+r[7]+' '+r[8]).toLowerCase();});return hay;}
function matches(){
  var q=search.value.trim().toLowerCase(),res=fRes.value,out=fOut.value,file=fFile.value,h=q?haystack():null,m=[];
  for(var i=0;i<data.rows.length;i++){var r=data.rows[i],reason=data.reasons[r[0]];
    if(res&&r[3]!==res)continue;if(out&&(reason?reason.outcome:r[4])!==out)continue;if(file&&r[1]!==file)continue;if(q&&h[i].indexOf(q)<0)continue;m.push(i);}
  return m;
}
function perReason(m){var c={};for(var i=0;i<m.length;i++){var k=data.rows[m[i]][0];c[k]=(c[k]||0)+1;}return c;}
function makeViewer(rows){
  var box=el('div',undefined,'viewer');box.tabIndex=0;box.setAttribute('role','region');box.setAttribute('aria-label','rows of this reason');
  var t=el('table'),head=el('tr');['file:line','externalId','field','column','message'].forEach(function(h){var th=el('th',h);th.scope='col';head.appendChild(th);});
  var thead=el('thead');thead.appendChild(head);t.appendChild(thead);var body=el('tbody');t.appendChild(body);box.appendChild(t);
  function spacer(h){var tr=el('tr',undefined,'spacer'),td=el('td');td.colSpan=5;td.style.height=h+'px';tr.appendChild(td);return tr;}
  function draw(){
    var first=Math.max(0,Math.floor(box.scrollTop/ROW)-10),last=Math.min(rows.length,first+Math.ceil(VIEW/ROW)+20);
    body.textContent='';body.appendChild(spacer(first*ROW));
    for(var i=first;i<last;i++){var r=data.rows[rows[i]],tr=el('tr');tr.className='row';
      [r[1]+':'+r[2],r[5],r[6],r[7],r[8]].forEach(function(v,j){var td=el('td',v,j===4?'msg':undefined);td.title=v;tr.appendChild(td);});body.appendChild(tr);}
    body.appendChild(spacer((rows.length-last)*ROW));
  }
  box.addEventListener('scroll',function(){window.requestAnimationFrame(draw);});
  draw();return box;
}
function render(){
  var m=matches(),per=perReason(m),filtered=search.value||fRes.value||fOut.value||fFile.value;
  list.textContent='';viewer=null;
  status.textContent=filtered?fmt(m.length)+' of '+fmt(data.rows.length)+' listed rows match':fmt(data.rows.length)+' rows listed';
  data.reasons.forEach(function(reason,i){
    if(fRes.value&&reason.resource!==fRes.value)return;if(fOut.value&&reason.outcome!==fOut.value)return;
    var hits=per[i]||0;if(filtered&&hits===0)return;
    var li=el('li'),b=el('button',undefined,'reason');b.type='button';b.setAttribute('aria-expanded',String(open===i));
    b.appendChild(el('span',fmt(reason.count)+(filtered?' ('+fmt(hits)+' match)':''),'count'));
    b.appendChild(el('span',reason.resource+' · '+reason.outcome,'what'));b.appendChild(el('span',reason.reason,'text'));
    b.addEventListener('click',function(){open=open===i?-1:i;render();});
    li.appendChild(b);
    if(open===i){shown=m.filter(function(k){return data.rows[k][0]===i;});
      if(shown.length===0)li.appendChild(el('p','No listed rows for this reason (see the note above).'));
      else{viewer=makeViewer(shown);li.appendChild(viewer);}}
    list.appendChild(li);
  });
}
var timer=0;function later(){window.clearTimeout(timer);timer=window.setTimeout(render,120);}
search.addEventListener('input',later);[fRes,fOut,fFile].forEach(function(s){s.addEventListener('change',render);});
render();
})();`;
