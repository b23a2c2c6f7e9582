/**
 * Small QTI 3 items of Dash's own for the lesson tests: one of each way an item is scored (match
 * correct, a mapped response, several interactions summed, a template with random values) and a
 * written answer that no machine marks. Plain text, so the browser tests can import them too.
 */

const ITEM_NAMESPACE = `xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"`;

/** One even number among three: right or wrong (match_correct). */
export const CHOICE_ITEM = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${ITEM_NAMESPACE} identifier="dash-lesson-even" title="Which number is even?" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>B</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt>Which number is even?</qti-prompt>
      <qti-simple-choice identifier="A">3</qti-simple-choice>
      <qti-simple-choice identifier="B">4</qti-simple-choice>
      <qti-simple-choice identifier="C">7</qti-simple-choice>
    </qti-choice-interaction>
    <qti-feedback-block outcome-identifier="SCORE" identifier="1" show-hide="show"><p>Yes, 4 is even.</p></qti-feedback-block>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;

/**
 * Two interactions, three points: the two prime numbers among four (a point each, a wrong choice
 * takes one away) and the capital of France typed in (a point, in any case).
 */
export const MULTI_ITEM = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${ITEM_NAMESPACE} identifier="dash-lesson-primes-and-paris" title="Primes and a capital" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier">
    <qti-correct-response><qti-value>A</qti-value><qti-value>C</qti-value></qti-correct-response>
    <qti-mapping lower-bound="0" default-value="0">
      <qti-map-entry map-key="A" mapped-value="1"/>
      <qti-map-entry map-key="B" mapped-value="-1"/>
      <qti-map-entry map-key="C" mapped-value="1"/>
      <qti-map-entry map-key="D" mapped-value="-1"/>
    </qti-mapping>
  </qti-response-declaration>
  <qti-response-declaration identifier="CAPITAL" cardinality="single" base-type="string">
    <qti-correct-response><qti-value>Paris</qti-value></qti-correct-response>
    <qti-mapping default-value="0">
      <qti-map-entry map-key="Paris" mapped-value="1" case-sensitive="false"/>
    </qti-mapping>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="3"/>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="0">
      <qti-prompt>Choose the prime numbers.</qti-prompt>
      <qti-simple-choice identifier="A">2</qti-simple-choice>
      <qti-simple-choice identifier="B">4</qti-simple-choice>
      <qti-simple-choice identifier="C">5</qti-simple-choice>
      <qti-simple-choice identifier="D">9</qti-simple-choice>
    </qti-choice-interaction>
    <p>The capital of France is <qti-text-entry-interaction response-identifier="CAPITAL" expected-length="10"/>.</p>
  </qti-item-body>
  <qti-response-processing>
    <qti-set-outcome-value identifier="SCORE">
      <qti-sum>
        <qti-map-response identifier="RESPONSE"/>
        <qti-map-response identifier="CAPITAL"/>
      </qti-sum>
    </qti-set-outcome-value>
  </qti-response-processing>
</qti-assessment-item>`;

/** A sum of two random numbers from 2 to 9: every attempt gets its own, and is scored against them. */
export const TEMPLATE_ITEM = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${ITEM_NAMESPACE} identifier="dash-lesson-sum" title="Add two numbers" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="integer"/>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-template-declaration identifier="A" cardinality="single" base-type="integer" math-variable="false" param-variable="false"/>
  <qti-template-declaration identifier="B" cardinality="single" base-type="integer" math-variable="false" param-variable="false"/>
  <qti-template-processing>
    <qti-set-template-value identifier="A"><qti-random-integer min="2" max="9"/></qti-set-template-value>
    <qti-set-template-value identifier="B"><qti-random-integer min="2" max="9"/></qti-set-template-value>
    <qti-set-correct-response identifier="RESPONSE">
      <qti-sum><qti-variable identifier="A"/><qti-variable identifier="B"/></qti-sum>
    </qti-set-correct-response>
  </qti-template-processing>
  <qti-item-body>
    <p>What is <qti-printed-variable identifier="A"/> + <qti-printed-variable identifier="B"/>?
      <qti-text-entry-interaction response-identifier="RESPONSE" expected-length="3"/></p>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;

/** A few sentences of the student's own: kept, never scored. */
export const ESSAY_ITEM = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${ITEM_NAMESPACE} identifier="dash-lesson-essay" title="Tell us about it" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <qti-extended-text-interaction response-identifier="RESPONSE">
      <qti-prompt>Which number do you like best, and why?</qti-prompt>
    </qti-extended-text-interaction>
  </qti-item-body>
</qti-assessment-item>`;

export const LESSON_TEST_ITEMS = [CHOICE_ITEM, MULTI_ITEM, TEMPLATE_ITEM, ESSAY_ITEM];
