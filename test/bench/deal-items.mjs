// A canonical deals row as the API's deal item, written plainly (the obvious script's mapping).
export function dealItem(row) {
  const item = {
    externalId: row.externalId,
    title: row.title,
    ownerExternalId: row.ownerExternalId,
    agentExternalId: row.agentExternalId,
    isWon: row.isWon === 'true',
    amount: { value: row['amount.value'], currency: row['amount.currency'] },
    currentStage: { pipelineName: row['currentStage.pipelineName'], value: row['currentStage.value'], occurredAt: row['currentStage.occurredAt'] },
    closeDate: row.closeDate,
    customFields: [
      { key: 'accountExternalId', name: 'Account', type: 'string', value: row['customFields.accountExternalId[Account]'] },
      { key: 'probability', name: 'Probability %', type: 'number', value: Number(row['customFields.probability[Probability %]:number']) },
    ],
  };
  return item;
}
